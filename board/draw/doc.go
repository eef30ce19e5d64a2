// Package draw draws N-Queens boards as pictures: SVG ([WriteSVG]), PNG
// ([WritePNG], or the paletted image itself with [Image]) and animated GIF
// ([GIFWriter], with [Diff] to store only what changed between frames).
// Every picture of one board has the same size, squares, labels and
// queens, in the colours of [Palette]; [Options] add the squares the
// queens attack, the attack counts and a caption. Boards go up to
// [MaxN]; the text formats are package board's.
package draw
