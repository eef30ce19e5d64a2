// Package tracecmd is queens trace: the backtracking search step by step,
// as text, boards, JSON Lines or an animated GIF (--gif), by any of the
// backtracker's strategies, with or without the search's stack.
package tracecmd
