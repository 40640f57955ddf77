// postject ships no types; this is the one function scripts/build-binary.ts calls.
declare module 'postject' {
  export function inject(
    filename: string,
    resourceName: string,
    resourceData: Buffer,
    options?: { readonly sentinelFuse?: string; readonly machoSegmentName?: string; readonly overwrite?: boolean },
  ): Promise<void>;
}
