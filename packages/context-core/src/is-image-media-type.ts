/**
 * Whether a media type names an image (`image/png`, `IMAGE/JPEG; q=1`...). A file part with one
 * is priced as an image wherever ctxkit counts it: frameworks send screenshots as files.
 *
 * @param mediaType - an IANA media type
 * @returns whether its top-level type is `image`
 */
export function isImageMediaType(mediaType: string): boolean {
  return /^\s*image\//i.test(mediaType);
}
