/** The package name errors are raised under. */
export const SOURCE = 'compressor-simple';
