package external

import (
	"errors"
	"fmt"
	"strings"
)

// ErrQuote is wrapped by the error of [SplitCommand] for a command with
// an unterminated quote or a trailing backslash.
var ErrQuote = errors.New("unterminated quote")

// SplitCommand splits a solver command into its program and arguments the
// way a POSIX shell splits words, without running a shell: words are
// separated by blanks (space, tab, newline); 'single quotes' keep every
// character as it is; "double quotes" keep every character except that a
// backslash before ", \, $ or ` escapes it; outside quotes a backslash
// escapes the next character. Nothing is expanded: $HOME, * and ~ stay as
// they are, and ; | & ( ) are ordinary characters. For example
//
//	clasp --heuristic=Vsids,92 'my file' "a \"b\""
//
// gives clasp, --heuristic=Vsids,92, my file and a "b". An unterminated
// quote or a trailing backslash is an error wrapping [ErrQuote]. An empty
// command gives no words and no error.
func SplitCommand(command string) ([]string, error) {
	var words []string
	var word strings.Builder
	inWord := false
	const (
		plain = iota
		single
		double
	)
	state := plain
	for i := 0; i < len(command); i++ {
		ch := command[i]
		switch state {
		case single:
			if ch == '\'' {
				state = plain
			} else {
				word.WriteByte(ch)
			}
		case double:
			switch {
			case ch == '"':
				state = plain
			case ch == '\\' && i+1 < len(command) && strings.IndexByte("\"\\$`", command[i+1]) >= 0:
				i++
				word.WriteByte(command[i])
			case ch == '\\' && i+1 < len(command) && command[i+1] == '\n':
				i++ // a line continuation
			default:
				word.WriteByte(ch)
			}
		default:
			switch ch {
			case ' ', '\t', '\n':
				if inWord {
					words = append(words, word.String())
					word.Reset()
					inWord = false
				}
				continue
			case '\'':
				state = single
			case '"':
				state = double
			case '\\':
				if i+1 == len(command) {
					return nil, fmt.Errorf("split solver command: %w: a backslash at the end", ErrQuote)
				}
				i++
				if command[i] == '\n' {
					continue // a line continuation joins the lines
				}
				word.WriteByte(command[i])
			default:
				word.WriteByte(ch)
			}
			inWord = true
		}
	}
	if state != plain {
		q := "'"
		if state == double {
			q = `"`
		}
		return nil, fmt.Errorf("split solver command: %w: %s opened but not closed", ErrQuote, q)
	}
	if inWord {
		words = append(words, word.String())
	}
	return words, nil
}

// QuoteCommand joins words into a command that [SplitCommand] splits back
// into the same words, quoting each word that needs it. It is how a
// command is shown in messages.
func QuoteCommand(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = quoteWord(w)
	}
	return strings.Join(out, " ")
}

func quoteWord(w string) string {
	if w == "" {
		return "''"
	}
	if !strings.ContainsAny(w, " \t\n'\"\\$`;|&()<>*?[]#~!{}") {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}
