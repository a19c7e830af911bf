import { checkInteger, invalidOption } from './check-option.js';

/**
 * The pixel size of an image, as its provider receives it. Leave out both `width` and `height`
 * when the size is unknown (an image by URL): every image count then returns the most one image
 * can cost on that model, so a budget never undercounts it.
 */
export interface ImageDimensions {
  /** Width in pixels: a positive integer. */
  readonly width?: number;
  /** Height in pixels: a positive integer. */
  readonly height?: number;
}

/** A known pixel size: both sides positive integers. */
export interface ImageSize {
  /** Width in pixels. */
  readonly width: number;
  /** Height in pixels. */
  readonly height: number;
}

/**
 * The checked size of `image`, or undefined when both sides are left out.
 *
 * @param image - The image as the caller gave it.
 * @param caller - The public function, named in errors.
 * @returns the size, or undefined for an image of unknown size
 * @throws InvalidOptionError (`invalid_option`) when `image` is not an object, only one side is
 *   given, or a side is not a positive integer (negative, zero, fractional, NaN, infinite)
 */
export function imageSizeOf(image: ImageDimensions, caller: string): ImageSize | undefined {
  if (typeof image !== 'object' || image === null) {
    throw invalidOption(caller, 'image', image, 'an object with width and height');
  }
  if (image.width === undefined && image.height === undefined) return undefined;
  const expected = 'a positive integer number of pixels (leave out both sides when unknown)';
  return {
    width: checkInteger(caller, 'width', image.width, 1, expected),
    height: checkInteger(caller, 'height', image.height, 1, expected),
  };
}

/**
 * The checked size of `image`, which must be known.
 *
 * @param image - The image as the caller gave it.
 * @param caller - The public function, named in errors.
 * @returns the size
 * @throws InvalidOptionError (`invalid_option`) when `image` is not an object or a side is
 *   missing or not a positive integer
 */
export function requireImageSize(image: ImageSize, caller: string): ImageSize {
  const size = imageSizeOf(image, caller);
  if (size === undefined) throw invalidOption(caller, 'width', undefined, 'a positive integer');
  return size;
}
