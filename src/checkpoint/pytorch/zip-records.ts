import { readSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { InferkitError } from '../../errors.js';

/** One record (file) of a zip archive: where its bytes lie. */
export interface ZipRecord {
  name: string;
  /** 0 = stored, 8 = deflated. */
  method: number;
  /** Absolute offset of the record's data in the archive. */
  dataOffset: number;
  /** Bytes on disk. */
  compressedSize: number;
  /** Bytes once inflated (= compressedSize when stored). */
  size: number;
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX_COMMENT = 0xffff;

/**
 * The records of the zip archive open at `fd` (`size` bytes), from its central directory, zip64 included
 * (torch.save writes zip64 fields for files past 4 GiB). Errors name `file`: not a zip, a directory cut short,
 * an encrypted record, a record past the end.
 */
export function readZipRecords(fd: number, size: number, file: string): Map<string, ZipRecord> {
  const fail = (why: string): never => {
    throw new InferkitError('model_load_failed', `${file}: ${why}`);
  };
  const tailLength = Math.min(size, 22 + MAX_COMMENT);
  const tail = read(fd, size - tailLength, tailLength);
  let eocd = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) {
    fail('not a zip archive (no end-of-directory record; truncated?)');
  }
  let count = tail.readUInt16LE(eocd + 10);
  let dirSize = tail.readUInt32LE(eocd + 12);
  let dirOffset = tail.readUInt32LE(eocd + 16);
  if (count === 0xffff || dirSize === 0xffffffff || dirOffset === 0xffffffff) {
    const locatorAt = size - tailLength + eocd - 20;
    const locator = locatorAt >= 0 ? read(fd, locatorAt, 20) : Buffer.alloc(0);
    if (locator.length < 20 || locator.readUInt32LE(0) !== ZIP64_LOCATOR) {
      fail('zip64 fields without a zip64 locator');
    }
    const at = safeNumber(locator.readBigUInt64LE(8), file);
    const z = read(fd, at, 56);
    if (z.length < 56 || z.readUInt32LE(0) !== ZIP64_EOCD) {
      fail('the zip64 end-of-directory record is missing');
    }
    count = safeNumber(z.readBigUInt64LE(32), file);
    dirSize = safeNumber(z.readBigUInt64LE(40), file);
    dirOffset = safeNumber(z.readBigUInt64LE(48), file);
  }
  if (dirOffset + dirSize > size) {
    fail(`the zip directory ends at byte ${dirOffset + dirSize} but the file has ${size} (truncated)`);
  }
  const dir = read(fd, dirOffset, dirSize);
  const records = new Map<string, ZipRecord>();
  let p = 0;
  for (let n = 0; n < count; n++) {
    if (p + 46 > dir.length || dir.readUInt32LE(p) !== CENTRAL) {
      fail(`zip directory entry ${n} of ${count} is damaged`);
    }
    const flags = dir.readUInt16LE(p + 8);
    const method = dir.readUInt16LE(p + 10);
    let compressedSize = dir.readUInt32LE(p + 20);
    let uncompressed = dir.readUInt32LE(p + 24);
    const nameLength = dir.readUInt16LE(p + 28);
    const extraLength = dir.readUInt16LE(p + 30);
    const commentLength = dir.readUInt16LE(p + 32);
    let localOffset = dir.readUInt32LE(p + 42);
    if (p + 46 + nameLength + extraLength + commentLength > dir.length) {
      fail(`zip directory entry ${n} of ${count} runs past the directory`);
    }
    const name = dir.toString('utf8', p + 46, p + 46 + nameLength);
    // zip64 extended information (id 1): the 8-byte sizes and offset, in that order, for each field saturated above.
    let e = p + 46 + nameLength;
    const extraEnd = e + extraLength;
    while (e + 4 <= extraEnd) {
      const id = dir.readUInt16LE(e);
      const len = dir.readUInt16LE(e + 2);
      if (e + 4 + len > extraEnd) {
        fail(`${name}: a zip extra field runs past its entry`);
      }
      if (id === 1) {
        let q = e + 4;
        const next = (): number => {
          const v = q + 8 <= e + 4 + len ? safeNumber(dir.readBigUInt64LE(q), file) : fail(`${name}: zip64 field cut short`);
          q += 8;
          return v;
        };
        if (uncompressed === 0xffffffff) {
          uncompressed = next();
        }
        if (compressedSize === 0xffffffff) {
          compressedSize = next();
        }
        if (localOffset === 0xffffffff) {
          localOffset = next();
        }
      }
      e += 4 + len;
    }
    p = extraEnd + commentLength;
    if ((flags & 1) !== 0) {
      fail(`${name} is encrypted`);
    }
    const local = read(fd, localOffset, 30);
    if (local.length < 30 || local.readUInt32LE(0) !== LOCAL) {
      fail(`${name}: no local header at byte ${localOffset}`);
    }
    const dataOffset = localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
    if (dataOffset + compressedSize > size) {
      fail(`${name} ends at byte ${dataOffset + compressedSize} but the file has ${size} (truncated)`);
    }
    records.set(name, { name, method, dataOffset, compressedSize, size: uncompressed });
  }
  return records;
}

/** A record's whole content (stored or deflated); for small records such as a pickle. */
export function readZipRecord(fd: number, record: ZipRecord, file: string): Buffer {
  const raw = read(fd, record.dataOffset, record.compressedSize);
  if (record.method === 0) {
    return raw;
  }
  if (record.method === 8) {
    try {
      return inflateRawSync(raw, { maxOutputLength: Math.max(record.size, 1) });
    } catch (cause) {
      throw new InferkitError('model_load_failed', `${file}: ${record.name} does not inflate (${(cause as Error).message})`, { cause });
    }
  }
  throw new InferkitError('model_load_failed', `${file}: ${record.name} uses zip compression method ${record.method}; inferkit reads stored and deflated records`);
}

function read(fd: number, position: number, length: number): Buffer {
  const buf = Buffer.alloc(length);
  let got = 0;
  while (got < length) {
    const r = readSync(fd, buf, got, length - got, position + got);
    if (r === 0) {
      break;
    }
    got += r;
  }
  return got === length ? buf : buf.subarray(0, got);
}

function safeNumber(v: bigint, file: string): number {
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new InferkitError('model_load_failed', `${file}: a zip64 size or offset (${v}) is past what inferkit reads`);
  }
  return Number(v);
}
