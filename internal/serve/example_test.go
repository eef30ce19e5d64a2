package serve_test

import (
	"fmt"
	"io"
	"net/http/httptest"
	"strings"

	"github.com/queens-dev/queens/internal/serve"
)

// The API answers JSON, 0-based: here the attack counts of a 4×4 board
// with a queen on row 0, column 1 (-1 marks the queen).
func ExampleHandler() {
	srv := httptest.NewServer(serve.Handler(serve.Options{}))
	defer srv.Close()
	res, err := srv.Client().Get(srv.URL + "/api/attacks?n=4&q=0:1")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	fmt.Println(res.Status)
	fmt.Print(strings.ReplaceAll(string(body), "],[", "],\n ["))
	// Output:
	// 200 OK
	// {"n":4,"attacks":[[1,-1,1,1],
	//  [1,1,1,0],
	//  [0,1,0,1],
	//  [0,1,0,0]],"conflicts":[]}
}
