export interface HealthProbe {
  /** Resolves true when the database answers. */
  databaseReachable(): Promise<boolean>;
}
