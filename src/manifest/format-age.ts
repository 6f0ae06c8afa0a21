/**
 * Formats an elapsed time like kubectl's AGE column (apimachinery `HumanDuration`): about two to three
 * significant figures — `45s`, `5m30s`, `47m`, `3h2m`, `20h`, `7d23h`, `45d`, `2y10d`, `9y`.
 * Up to 1 s in the future reads `0s`; further in the future reads `<invalid>`.
 */
export function formatAge(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) {
    return '<invalid>';
  }
  if (seconds < 0) {
    return '0s';
  }
  if (seconds < 120) {
    return `${seconds}s`;
  }
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) {
    return pair(minutes, 'm', seconds % 60, 's');
  }
  if (minutes < 180) {
    return `${minutes}m`;
  }
  const hours = Math.floor(minutes / 60);
  if (hours < 8) {
    return pair(hours, 'h', minutes % 60, 'm');
  }
  if (hours < 48) {
    return `${hours}h`;
  }
  const days = Math.floor(hours / 24);
  if (hours < 24 * 8) {
    return pair(days, 'd', hours % 24, 'h');
  }
  if (days < 365 * 2) {
    return `${days}d`;
  }
  const years = Math.floor(days / 365);
  if (days < 365 * 8) {
    return pair(years, 'y', days % 365, 'd');
  }
  return `${years}y`;
}

/** `5m` when the smaller unit is zero, else `5m30s`. */
function pair(big: number, bigUnit: string, small: number, smallUnit: string): string {
  return small === 0 ? `${big}${bigUnit}` : `${big}${bigUnit}${small}${smallUnit}`;
}
