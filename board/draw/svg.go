package draw

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/queens-dev/queens/board"
)

// MaxN is the largest board [WriteSVG], [WritePNG] and [Image] draw.
// A 256×256 board already has 65,536 squares of 2 pixels each; anything
// bigger is not a picture anyone can look at.
const MaxN = 256

// Options says how [WriteSVG], [WritePNG] and [Image] draw a board.
// The zero value draws a labelled checkerboard with the queens.
type Options struct {
	// Square is the side of one square in pixels (user units in SVG),
	// 2..128. Zero chooses one from n: 48 for small boards, less for big
	// ones, so that the board stays about 640 pixels wide at most.
	Square int
	// NoLabels leaves out the 1-based row (left) and column (top) labels.
	NoLabels bool
	// Attacks shades the empty squares that some queen attacks.
	Attacks bool
	// Place marks pre-placed queens: a queen of the solution standing on
	// one of these squares is drawn in blue instead of black. Every
	// picture of the project (SVG, PNG, GIF and the web page) speaks the
	// same colours: black the queens a search placed, blue the ones given
	// beforehand.
	Place []board.Queen
	// Tried highlights squares in yellow: a search considering them.
	Tried []board.Queen
	// Rejected highlights squares in red: a search ruling them out.
	Rejected []board.Queen
	// Numbers writes in every empty square the number of queens that
	// attack it (0 for a free square), the attack counts of
	// [board.Attacks]. Squares under 10 pixels are too small for them and
	// stay plain.
	Numbers bool
	// Emptied marks squares whose queen a search has just taken away
	// (a backtrack): a grey outline of a queen.
	Emptied []board.Queen
	// RejectDots puts a small black dot on squares a search rejected
	// since it last placed or took away a queen (the tries of this line),
	// and AttackDots a small blue dot on the squares the queen just placed
	// attacks and no queen attacked before: the black and blue dots of
	// the textbook's figure (Fig. 5-7(b) of the course text), which shows
	// both kinds in one picture.
	RejectDots, AttackDots []board.Queen
	// Legend draws under the board (and caption) a key to the marks it
	// names, e.g. LegendQueen|LegendPlaced.
	Legend Legend
	// Caption is a line of text under the board, e.g. the step of a
	// search a frame shows. PNG and GIF pictures draw it in a built-in
	// 3×5 pixel font of digits, letters and a few signs (others are left
	// blank); lower case is drawn as upper case.
	Caption string
	// CaptionScale is the pixel size of the caption's font, 1 or 2 (each
	// letter 3×5 of them); 0 picks 2 where the caption fits and 1
	// otherwise. The frames of an animation fix it, so that they all
	// have one size.
	CaptionScale int
}

// Legend is a set of the marks a picture's key explains (see
// [Options.Legend]).
type Legend uint16

// The entries of a legend, in the order it lists them.
const (
	LegendQueen     Legend = 1 << iota // a black queen: placed by the search
	LegendPlaced                       // a blue queen: pre-placed
	LegendAttacked                     // grey squares: some queen attacks them
	LegendTried                        // yellow: the square just placed
	LegendRejected                     // red: a rejected square, a dead end's line
	LegendEmptied                      // a grey outline: the square a backtrack emptied
	LegendRejectDot                    // a black dot: rejected in this line before
	LegendAttackDot                    // a blue dot: newly attacked by the queen just placed
)

// The kinds of swatch of a legend entry.
const (
	swatchSquare  = iota // the square in the colour
	swatchQueen          // a queen in the colour
	swatchOutline        // a queen's outline
	swatchDot            // a dot on a light square
)

// legendEntries are the legend's swatches and words, in [Legend]'s order.
var legendEntries = []struct {
	kind, colour int
	text         string
}{
	{swatchQueen, cQueen, "search"}, {swatchQueen, cPlaced, "pre-placed"}, {swatchSquare, cAttackedLight, "attacked"},
	{swatchSquare, cTried, "just placed"}, {swatchSquare, cRejected, "rejected"}, {swatchOutline, cEmptied, "emptied"},
	{swatchDot, cQueen, "rejected before"}, {swatchDot, cPlaced, "newly attacked"},
}

// legendItem is one entry of a picture's legend, placed: its swatch's
// top-left corner.
type legendItem struct {
	kind, colour int
	text         string
	x, y         int
}

// legendItems lays out the entries of lg in lines of at most width
// pixels, from (0, 0), and returns them with the height they take; side
// is the swatch's side and the line's height, scale the font's.
func legendItems(lg Legend, width, side, scale int) ([]legendItem, int) {
	var items []legendItem
	x, y := 0, 0
	for i, e := range legendEntries {
		if lg&(1<<i) == 0 {
			continue
		}
		w := side + 2*scale + textWidth(e.text, scale)
		if x > 0 && x+w > width {
			x, y = 0, y+side+2*scale
		}
		items = append(items, legendItem{e.kind, e.colour, e.text, x, y})
		x += w + 4*scale
	}
	if len(items) == 0 {
		return nil, 0
	}
	return items, y + side + 2*scale
}

// Colours of the pictures, shared by SVG and PNG (and GIF through [Image]).
// The board colours are those of common chess sites; attacked squares are
// grey, light and dark, so that a free dark square (brown) and an
// attacked one never look alike.
const (
	cBackground = iota
	cLight
	cDark
	cAttackedLight
	cAttackedDark
	cTried
	cRejected
	cQueen
	cPlaced
	cLabel
	cEmptied
	numColours
)

var colourHex = [numColours]string{
	cBackground:    "#ffffff",
	cLight:         "#f0d9b5",
	cDark:          "#b58863",
	cAttackedLight: "#c8c8c8",
	cAttackedDark:  "#8c8c8c",
	cTried:         "#f5e14a",
	cRejected:      "#e0443a",
	cQueen:         "#1b1b1b",
	cPlaced:        "#1f55c8",
	cLabel:         "#333333",
	cEmptied:       "#5f5f5f",
}

// queenShape is the outline of a queen (a crown) in a unit square, y
// pointing down. PNG fills it pixel by pixel, SVG draws it as a path, so
// both show the same queen.
var queenShape = [][2]float64{
	{.18, .86}, {.82, .86}, {.82, .76}, {.91, .30}, {.68, .54},
	{.50, .15}, {.32, .54}, {.09, .30}, {.18, .76},
}

// layout is the geometry of a picture: a margin for the labels on the top
// and left, then n squares of sq pixels.
type layout struct {
	n, sq                    int
	left                     int          // width of the row labels
	top                      int          // height of the column labels
	right                    int          // room for the last column's label where it is wider than its square
	bottom                   int          // room for the last row's label and the caption
	cscale                   int          // pixel size of the caption font
	legend                   []legendItem // positions relative to (2*lscale, legendTop)
	legendTop, lscale, lside int
	captionTop               int // the top of the caption's letters
	scale                    int // pixel size of the label font
	step                     int // label every step-th row and column (and the first)
	width                    int
	height                   int
}

func newLayout(n int, opt *Options) (layout, error) {
	if err := board.CheckSize(n, MaxN); err != nil {
		return layout{}, fmt.Errorf("draw board: %w (pictures go up to %d)", err, MaxN)
	}
	l := layout{n: n, sq: opt.Square}
	if l.sq == 0 {
		l.sq = min(48, max(2, 640/n))
	}
	if l.sq < 2 || l.sq > 128 {
		return layout{}, fmt.Errorf("draw board: square of %d pixels, want 2..128", l.sq)
	}
	if !opt.NoLabels {
		l.scale = max(1, l.sq/16)
		text := len(strconv.Itoa(n))*4*l.scale - l.scale // widest label
		for _, step := range []int{1, 2, 5, 10, 20, 50, 100} {
			l.step = step
			if step*l.sq >= text+2*l.scale {
				break
			}
		}
		l.left = text + 4*l.scale
		l.top = 5*l.scale + 4*l.scale
		// A label wider than its square (three digits on a board of 100
		// and more) overhangs the board: leave room for it.
		l.right = max(0, (text+1)/2+l.scale-l.sq/2)
		l.bottom = max(0, (5*l.scale+1)/2+l.scale-l.sq/2)
	}
	l.width, l.height = l.left+n*l.sq+l.right, l.top+n*l.sq+l.bottom
	if opt.Caption != "" {
		l.cscale = max(1, min(2, l.width/(4*len(opt.Caption)+2)))
		if opt.CaptionScale > 0 {
			l.cscale = min(2, opt.CaptionScale)
		}
		l.bottom += 9 * l.cscale
		l.height += 9 * l.cscale
		l.captionTop = l.height - 7*l.cscale
	}
	if opt.Legend != 0 {
		l.lscale = max(1, min(2, l.width/160))
		l.lside = 7 * l.lscale
		var h int
		l.legend, h = legendItems(opt.Legend, l.width-4*l.lscale, l.lside, l.lscale)
		l.legendTop = l.height + l.lscale
		l.bottom += h + 2*l.lscale
		l.height += h + 2*l.lscale
	}
	return l, nil
}

// numberScale returns the pixel size of the font of the attack counts in
// a square of sq pixels, 0 if the square is too small for them.
func numberScale(sq int) int {
	if sq < 10 {
		return 0
	}
	return max(1, sq/14)
}

// labelled reports whether row or column i (0-based) gets a label.
func (l layout) labelled(i int) bool { return i == 0 || (i+1)%l.step == 0 }

// squares returns the colour of every square of s (row-major) as opt asks.
// A negative column leaves that row empty; other columns must be on the
// board.
func squares(s board.Solution, opt *Options) ([]uint8, error) {
	n := len(s)
	for row, col := range s {
		if col >= n {
			return nil, fmt.Errorf("draw board: queen in row %d is at column %d, off the board", row+1, col+1)
		}
	}
	cells := make([]uint8, n*n)
	var cols, diag, anti, rows []bool
	if opt.Attacks {
		cols, rows = make([]bool, n), make([]bool, n)
		diag, anti = make([]bool, 2*n), make([]bool, 2*n)
		for row, col := range s {
			if col >= 0 {
				rows[row], cols[col], diag[row-col+n], anti[row+col] = true, true, true, true
			}
		}
	}
	for row := range n {
		for col := range n {
			c := uint8(cLight)
			if (row+col)%2 == 1 {
				c = cDark
			}
			if opt.Attacks && s[row] != col && (rows[row] || cols[col] || diag[row-col+n] || anti[row+col]) {
				c += cAttackedLight - cLight
			}
			cells[row*n+col] = c
		}
	}
	mark := func(qs []board.Queen, c uint8) {
		for _, q := range qs {
			if q.Row >= 0 && q.Row < n && q.Col >= 0 && q.Col < n {
				cells[q.Row*n+q.Col] = c
			}
		}
	}
	mark(opt.Tried, cTried)
	mark(opt.Rejected, cRejected)
	return cells, nil
}

// queenColour returns the colour of the queen on (row, col).
func queenColour(row, col int, opt *Options) uint8 {
	for _, q := range opt.Place {
		if q.Row == row && q.Col == col {
			return cPlaced
		}
	}
	return cQueen
}

// WriteSVG draws s as an SVG image: the checkerboard, 1-based labels, and
// one <path class="queen"> (or class="queen placed" for a pre-placed queen)
// per queen, drawn as opt says (nil: the defaults). A negative column
// leaves that row empty. Boards above [MaxN] wrap [board.ErrSize].
func WriteSVG(w io.Writer, s board.Solution, opt *Options) error {
	if opt == nil {
		opt = &Options{}
	}
	l, err := newLayout(len(s), opt)
	if err != nil {
		return err
	}
	cells, err := squares(s, opt)
	if err != nil {
		return err
	}
	n := len(s)
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">`+"\n",
		l.width, l.height, l.width, l.height)
	fmt.Fprintf(b, "<title>%d-queens: %s</title>\n", n, coordsTitle(s))
	fmt.Fprintf(b, `<rect width="%d" height="%d" fill="%s"/>`+"\n", l.width, l.height, colourHex[cBackground])
	// The light colour under the whole board, then only the squares that
	// differ from it: half the elements of one rect per square.
	fmt.Fprintf(b, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>`+"\n",
		l.left, l.top, n*l.sq, n*l.sq, colourHex[cLight])
	for row := range n {
		for col := range n {
			if c := cells[row*n+col]; c != cLight {
				fmt.Fprintf(b, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>`+"\n",
					l.left+col*l.sq, l.top+row*l.sq, l.sq, l.sq, colourHex[c])
			}
		}
	}
	if !opt.NoLabels {
		size := 7 * l.scale
		fmt.Fprintf(b, `<g font-family="sans-serif" font-size="%d" fill="%s" text-anchor="middle">`+"\n", size, colourHex[cLabel])
		for i := range n {
			if !l.labelled(i) {
				continue
			}
			mid := i*l.sq + l.sq/2
			fmt.Fprintf(b, `<text x="%d" y="%d">%d</text>`+"\n", l.left+mid, l.top-2*l.scale, i+1)
			fmt.Fprintf(b, `<text x="%d" y="%d" dominant-baseline="central">%d</text>`+"\n", l.left/2, l.top+mid, i+1)
		}
		b.WriteString("</g>\n")
	}
	if numberScale(l.sq) > 0 && opt.Numbers {
		counts := board.Attacks(n, s.PlacedQueens())
		fmt.Fprintf(b, `<g class="attacks" font-family="sans-serif" font-size="%s" fill="%s" text-anchor="middle" dominant-baseline="central">`+"\n",
			num(float64(l.sq)*0.45), colourHex[cLabel])
		for i, v := range counts {
			if v >= 0 {
				fmt.Fprintf(b, `<text x="%d" y="%d">%d</text>`+"\n", l.left+(i%n)*l.sq+l.sq/2, l.top+(i/n)*l.sq+l.sq/2, v)
			}
		}
		b.WriteString("</g>\n")
	}
	if opt.Caption != "" {
		fmt.Fprintf(b, `<text class="caption" x="%d" y="%d" font-family="monospace" font-size="%d" fill="%s">%s</text>`+"\n",
			2*l.cscale, l.captionTop+5*l.cscale, 7*l.cscale, colourHex[cLabel], xmlEscape(opt.Caption))
	}
	for row, col := range s {
		if col < 0 {
			continue
		}
		class := "queen"
		c := queenColour(row, col, opt)
		if c == cPlaced {
			class = "queen placed"
		}
		writeQueenPath(b, fmt.Sprintf(`class="%s" fill="%s"`, class, colourHex[c]), float64(l.left+col*l.sq), float64(l.top+row*l.sq), float64(l.sq))
	}
	for _, q := range opt.Emptied {
		if q.Row >= 0 && q.Row < n && q.Col >= 0 && q.Col < n && s[q.Row] != q.Col {
			writeQueenPath(b, `class="emptied" fill="none" stroke="`+colourHex[cEmptied]+`" stroke-width="`+num(float64(l.sq)/16)+`"`,
				float64(l.left+q.Col*l.sq), float64(l.top+q.Row*l.sq), float64(l.sq))
		}
	}
	for _, d := range []struct {
		qs    []board.Queen
		c     uint8
		class string
	}{{opt.RejectDots, cQueen, "reject-dot"}, {opt.AttackDots, cPlaced, "attack-dot"}} {
		for _, q := range d.qs {
			if q.Row >= 0 && q.Row < n && q.Col >= 0 && q.Col < n {
				fmt.Fprintf(b, `<circle class="%s" cx="%s" cy="%s" r="%s" fill="%s"/>`+"\n", d.class,
					num(float64(l.left+q.Col*l.sq)+float64(l.sq)/2), num(float64(l.top+q.Row*l.sq)+float64(l.sq)/2), num(max(1, float64(l.sq)/10)), colourHex[d.c])
			}
		}
	}
	if len(l.legend) > 0 {
		writeLegend(b, l)
	}
	b.WriteString("</svg>\n")
	if err := b.Flush(); err != nil {
		return fmt.Errorf("write SVG: %w", err)
	}
	return nil
}

// writeQueenPath writes queenShape as a path with the attributes attrs,
// scaled to the square of side sq at (x0, y0).
func writeQueenPath(b *bufio.Writer, attrs string, x0, y0, sq float64) {
	fmt.Fprintf(b, `<path %s d="`, attrs)
	for i, p := range queenShape {
		cmd := "L"
		if i == 0 {
			cmd = "M"
		}
		fmt.Fprintf(b, "%s%s %s", cmd, num(x0+p[0]*sq), num(y0+p[1]*sq))
	}
	b.WriteString(`Z"/>` + "\n")
}

// writeLegend writes the legend laid out in l: a swatch and its words per
// entry, as the PNG draws them.
func writeLegend(b *bufio.Writer, l layout) {
	b.WriteString(`<g class="legend">` + "\n")
	side := float64(l.lside)
	for _, it := range l.legend {
		x, y := float64(2*l.lscale+it.x), float64(l.legendTop+it.y)
		c := colourHex[it.colour]
		if it.kind != swatchSquare {
			fmt.Fprintf(b, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>`+"\n", num(x), num(y), num(side), num(side), colourHex[cLight])
		}
		switch it.kind {
		case swatchSquare:
			fmt.Fprintf(b, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>`+"\n", num(x), num(y), num(side), num(side), c)
		case swatchQueen:
			writeQueenPath(b, `fill="`+c+`"`, x, y, side)
		case swatchOutline:
			writeQueenPath(b, `fill="none" stroke="`+c+`" stroke-width="1"`, x, y, side)
		case swatchDot:
			fmt.Fprintf(b, `<circle cx="%s" cy="%s" r="%s" fill="%s"/>`+"\n", num(x+side/2), num(y+side/2), num(max(1, side/6)), c)
		}
		fmt.Fprintf(b, `<text x="%s" y="%s" font-family="sans-serif" font-size="%d" fill="%s" dominant-baseline="central">%s</text>`+"\n",
			num(x+side+float64(2*l.lscale)), num(y+side/2), 6*l.lscale, colourHex[cLabel], xmlEscape(it.text))
	}
	b.WriteString("</g>\n")
}

// xmlEscape escapes text for an SVG text element.
func xmlEscape(text string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(text))
	return b.String()
}

// num writes a coordinate with at most two decimals.
func num(x float64) string { return strconv.FormatFloat(math.Round(x*100)/100, 'f', -1, 64) }

// coordsTitle lists the queens as 1-based ROW:COL for the picture's title.
func coordsTitle(s board.Solution) string {
	var b []byte
	for row, col := range s {
		if col < 0 {
			continue
		}
		if len(b) > 0 {
			b = append(b, ' ')
		}
		b = fmt.Appendf(b, "%d:%d", row+1, col+1)
	}
	if len(b) == 0 {
		return "no queens"
	}
	return string(b)
}
