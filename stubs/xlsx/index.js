'use strict';
// Stand-in for SheetJS xlsx (see package.json): loading it is free, using it says why it is absent.
function unavailable(name) {
  return function () {
    throw new Error('xlsx.' + name + ': spreadsheets are not supported (inferkit replaces the xlsx package with a stub; read CSV with readCsv)');
  };
}
module.exports = {
  read: unavailable('read'),
  readFile: unavailable('readFile'),
  write: unavailable('write'),
  writeFile: unavailable('writeFile'),
  utils: { sheet_to_json: unavailable('utils.sheet_to_json'), json_to_sheet: unavailable('utils.json_to_sheet'), book_new: unavailable('utils.book_new'), book_append_sheet: unavailable('utils.book_append_sheet') },
};
