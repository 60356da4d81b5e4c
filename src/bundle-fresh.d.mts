/** The bundle's file URL when build/<name> exists and is newer than every source file, else undefined. */
export function freshBundle(name: string): string | undefined;
