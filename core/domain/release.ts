/**
 * The release this build is. It is a constant on purpose: the interface specification says the
 * release number is reported by the service and is not taken from package metadata.
 */
export const RELEASE = '0.13.1';
