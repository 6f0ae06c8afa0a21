import { InferkitError } from '../errors.js';

/** One value per time step; `null` is a missing value. */
export type UnivariateValues = (number | null)[];

/** Anything with a forecast series: univariate values, or time-first rows of variables. */
export interface HasSeries {
  /** Series name, used in error messages. */
  name?: string;
  /** Univariate `[t]`, or multivariate time first `[t][variable]`. */
  series: readonly (number | null)[] | readonly (readonly (number | null)[])[];
  /** Variable names of a multivariate series (`frameToInputs` sets them). */
  variables?: readonly string[];
}

/**
 * True when `input.series` is univariate (no step is a list of variables), narrowing it to
 * `UnivariateValues` so array methods such as `.filter` type-check (TS 5.0, as in tslab, does not
 * call them on a union of array types). An empty series counts as univariate.
 */
export function isUnivariate<T extends HasSeries>(input: T): input is T & { series: UnivariateValues } {
  return (input.series as readonly unknown[]).every((v) => !Array.isArray(v));
}

/**
 * The values of a series as one plain array: the series itself when univariate, or the column of
 * `variable` (an index, or a name from `input.variables`) when multivariate. Throws `invalid_request`
 * naming the series for a multivariate series without `variable`, or an unknown variable.
 */
export function seriesValues(input: HasSeries, variable?: number | string): UnivariateValues {
  const label = input.name === undefined ? 'series' : `series "${input.name}"`;
  if (isUnivariate(input)) {
    if (variable !== undefined && variable !== 0 && variable !== input.variables?.[0]) {
      throw new InferkitError('invalid_request', `${label} is univariate; it has no variable ${JSON.stringify(variable)}`, { param: 'variable' });
    }
    return [...input.series];
  }
  const rows = input.series as readonly (readonly (number | null)[])[];
  const width = rows[0]?.length ?? 0;
  if (variable === undefined) {
    const names = input.variables ? ` (${input.variables.join(', ')})` : '';
    throw new InferkitError('invalid_request', `${label} is multivariate with ${width} variables${names}: pass the variable to read, by index or name`, {
      param: 'variable',
    });
  }
  const index = typeof variable === 'number' ? variable : (input.variables ?? []).indexOf(variable);
  if (!Number.isInteger(index) || index < 0 || index >= width) {
    throw new InferkitError('invalid_request', `${label} has no variable ${JSON.stringify(variable)} (it has ${width})`, { param: 'variable' });
  }
  return rows.map((row) => row[index] ?? null);
}
