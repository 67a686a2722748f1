package escape_test

import (
	"fmt"
	"os"

	"github.com/dagq/dagq/internal/escape"
)

func Example() {
	fmt.Println(`<b title="` + escape.HTML(`"fetch" & <parse>`) + `">`)
	_ = escape.XMLText(os.Stdout, "a\tb < c")
	fmt.Println()
	// Output:
	// <b title="&#34;fetch&#34; &amp; &lt;parse&gt;">
	// a&#x9;b &lt; c
}
