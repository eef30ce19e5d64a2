package shard

import (
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"strconv"
)

// Uint128 is an unsigned whole number below 2^128, Hi × 2^64 + Lo: the
// sums of a count in 24ths, which pass 2^64 from n = 28 (24 × the
// solutions) and n = 30 (the solutions themselves). In a line it is
// written as a JSON number of decimal digits.
type Uint128 struct{ Hi, Lo uint64 }

// From64 returns v as a Uint128.
func From64(v uint64) Uint128 { return Uint128{Lo: v} }

// Add returns x + y and whether the sum passed 2^128 (it then wrapped).
func (x Uint128) Add(y Uint128) (Uint128, bool) {
	lo, c := bits.Add64(x.Lo, y.Lo, 0)
	hi, c := bits.Add64(x.Hi, y.Hi, c)
	return Uint128{hi, lo}, c != 0
}

// Uint64 returns x and whether it fits in 64 bits.
func (x Uint128) Uint64() (uint64, bool) { return x.Lo, x.Hi == 0 }

// IsZero reports whether x is 0.
func (x Uint128) IsZero() bool { return x == Uint128{} }

// Cmp returns -1, 0 or +1 as x is less than, equal to or greater than y.
func (x Uint128) Cmp(y Uint128) int {
	switch {
	case x.Hi < y.Hi, x.Hi == y.Hi && x.Lo < y.Lo:
		return -1
	case x == y:
		return 0
	}
	return 1
}

// DivMod returns x / d and x % d; d must not be 0.
func (x Uint128) DivMod(d uint64) (Uint128, uint64) {
	hi, r := bits.Div64(0, x.Hi, d)
	lo, r := bits.Div64(r, x.Lo, d)
	return Uint128{hi, lo}, r
}

// Mul64 returns x × m and whether the product passed 2^128.
func (x Uint128) Mul64(m uint64) (Uint128, bool) {
	h1, lo := bits.Mul64(x.Lo, m)
	h2, l2 := bits.Mul64(x.Hi, m)
	hi, c := bits.Add64(h1, l2, 0)
	return Uint128{hi, lo}, h2 != 0 || c != 0
}

// Big returns x as a [big.Int].
func (x Uint128) Big() *big.Int {
	b := new(big.Int).SetUint64(x.Hi)
	return b.Lsh(b, 64).Or(b, new(big.Int).SetUint64(x.Lo))
}

// String writes x in decimal.
func (x Uint128) String() string {
	return string(x.appendDecimal(nil))
}

// appendDecimal appends x in decimal to b.
func (x Uint128) appendDecimal(b []byte) []byte {
	if x.Hi == 0 {
		return strconv.AppendUint(b, x.Lo, 10)
	}
	return x.Big().Append(b, 10)
}

// Format writes x in decimal for the verbs d, v and s of package fmt
// (with their width and flags, as for a string).
func (x Uint128) Format(f fmt.State, verb rune) {
	if verb != 'd' && verb != 'v' && verb != 's' {
		fmt.Fprintf(f, "%%!%c(shard.Uint128=%s)", verb, x.String())
		return
	}
	w, _ := f.Width()
	if f.Flag('-') {
		w = -w
	}
	fmt.Fprintf(f, "%*s", w, x.String())
}

// MarshalJSON writes x as a JSON number.
func (x Uint128) MarshalJSON() ([]byte, error) { return []byte(x.String()), nil }

// errUint128 is the error of a number that is not a Uint128.
var errUint128 = errors.New("not a whole number from 0 to 2^128-1")

// ParseUint128 reads decimal digits (no sign, no leading zero, at most 39
// digits, below 2^128).
func ParseUint128(s string) (Uint128, error) {
	if s == "" || len(s) > 39 || len(s) > 1 && s[0] == '0' {
		return Uint128{}, errUint128
	}
	var x Uint128
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return Uint128{}, errUint128
		}
		var over1, over2 bool
		if x, over1 = x.Mul64(10); !over1 {
			x, over2 = x.Add(From64(uint64(c - '0')))
		}
		if over1 || over2 {
			return Uint128{}, errUint128
		}
	}
	return x, nil
}

// UnmarshalJSON reads a JSON number written by MarshalJSON, refusing
// anything else (a fraction, an exponent, a sign, a number past 2^128).
func (x *Uint128) UnmarshalJSON(b []byte) error {
	v, err := ParseUint128(string(b))
	if err != nil {
		return err
	}
	*x = v
	return nil
}
