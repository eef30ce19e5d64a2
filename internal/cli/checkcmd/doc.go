// Package checkcmd is queens check: it reads a placement in any form a
// person or a program writes one (a permutation, coordinates, a grid, a
// 0/1 matrix, JSON), from the arguments or stdin, and names every pair
// of queens that attack each other.
package checkcmd
