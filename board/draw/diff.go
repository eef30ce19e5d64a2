package draw

import "image"

// Diff returns the smallest part of img that differs from prev (same
// size), as its own image: drawn over prev it gives img, so the frames of
// an animation stay small. An unchanged image gives a 1×1 part (a GIF
// frame cannot be empty).
func Diff(prev, img *image.Paletted) *image.Paletted {
	box := image.Rectangle{}
	for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
		for x := img.Rect.Min.X; x < img.Rect.Max.X; x++ {
			if i := img.PixOffset(x, y); img.Pix[i] != prev.Pix[i] {
				box = box.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	if box.Empty() {
		box = image.Rect(0, 0, 1, 1) // GIF frames cannot be empty
	}
	part := image.NewPaletted(box, img.Palette)
	for y := box.Min.Y; y < box.Max.Y; y++ {
		copy(part.Pix[part.PixOffset(box.Min.X, y):part.PixOffset(box.Max.X, y)], img.Pix[img.PixOffset(box.Min.X, y):img.PixOffset(box.Max.X, y)])
	}
	return part
}
