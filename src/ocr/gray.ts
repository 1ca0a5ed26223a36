/** A grey raster, one byte per pixel, row by row: what the page analyses and the readers take. */
export interface GrayImage { gray: Buffer; width: number; height: number }
