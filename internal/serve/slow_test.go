package serve

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// slowClient opens a connection to srv and sends a POST to path whose
// declared body of 40 bytes it starts, one byte, and then holds.
func slowClient(t *testing.T, srv *httptest.Server, path string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{", path)
	return conn
}

// TestSlowClients: clients that send their bodies a byte at a time take
// no heavy-request slot and refuse no one: with any number of them open
// from one address (every local process is 127.0.0.1), the page, attack
// counts and solves are answered.
func TestSlowClients(t *testing.T) {
	srv := httptest.NewServer(Handler(Options{MaxHeavy: 2}))
	t.Cleanup(srv.Close) // after the slow clients' connections close
	for range 12 {
		slowClient(t, srv, "/api/solve")
		slowClient(t, srv, "/api/count")
	}
	time.Sleep(100 * time.Millisecond) // the handlers are reading
	for _, get := range []string{"/", "/app.js", "/api/attacks?n=8"} {
		res, err := http.Get(srv.URL + get)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Errorf("GET %s with 24 slow clients sending: status %d, want 200", get, res.StatusCode)
		}
	}
	res, err := http.Post(srv.URL+"/api/solve", "application/json", strings.NewReader(`{"n":8,"queens":[],"engine":"backtrack"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("a solve with 24 slow clients sending: status %d, want 200", res.StatusCode)
	}
}

// TestBodyTooLarge: a body over maxBody is 413 whatever it holds, and
// whether or not it declares its length.
func TestBodyTooLarge(t *testing.T) {
	h := Handler(Options{})
	for name, body := range map[string]string{
		"garbage":    strings.Repeat("x", maxBody+1),
		"whitespace": strings.Repeat(" ", maxBody+1),
		"JSON":       `{"n":8,"queens":[` + strings.Repeat("[0,0],", maxBody/6) + `[0,0]]}`,
	} {
		for _, declared := range []bool{true, false} {
			req := httptest.NewRequest("POST", "/api/solve", strings.NewReader(body))
			req.Host = "127.0.0.1:8080"
			req.Header.Set("Content-Type", "application/json")
			if !declared {
				req.ContentLength = -1
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != http.StatusRequestEntityTooLarge {
				t.Errorf("%s (length declared %v): status %d, want 413: %s", name, declared, w.Code, w.Body)
			}
		}
	}
}
