export interface IdGenerator {
  /** A new random UUID (version 4): unguessable, for anything that may be addressed from outside. */
  next(): string;
  /**
   * A new UUID that sorts after the ones made before it (version 7), for records written in
   * volume: appended at the end of their indexes instead of anywhere in them, which keeps each
   * commit small. Part of it is a timestamp, so it is not for anything that must be unguessable.
   */
  ordered(): string;
}
