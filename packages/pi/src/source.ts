/** The package's name in error messages: `[ctxkit/pi]`. */
export const SOURCE = 'pi';

/** Where a converted message keeps pi's fields that ctxkit has no place for (`meta.pi`). */
export const PI_FIELDS = 'pi';

/** Marks a converted custom app message (`meta.piCustom`): its one opaque part is the message. */
export const PI_CUSTOM = 'piCustom';
