package join_test

import (
	"context"
	"fmt"

	"github.com/queens-dev/queens/backtrack/join"
)

func ExampleCount() {
	res, err := join.Count(context.Background(), 10, join.Options{Unique: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Total, "solutions,", res.Unique, "unique,", res.Rotations, "up to rotation")
	// Output: 724 solutions, 92 unique, 184 up to rotation
}
