/**
 * A moment as every REST answer gives it: milliseconds since the Unix epoch, a number. Automatisch's
 * serializers write timestamps so (`date.getTime()`) and its web client reads them so
 * (`DateTime.fromMillis`); an ISO string there shows as "Invalid DateTime". GraphQL fields typed
 * `String` turn the number into its decimal text, as Automatisch's GraphQL did.
 */
export function epochMs(date: Date): number;
export function epochMs(date: Date | null): number | null;
export function epochMs(date: Date | null): number | null {
  return date === null ? null : date.getTime();
}
