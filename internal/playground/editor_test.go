package playground_test

import (
	"testing"

	"github.com/dagq/dagq/internal/playground"
)

func TestEditorOffset(t *testing.T) {
	t.Parallel()
	const text = "submit a\n# é😀 x\n\tnext y\n"
	tests := []struct {
		name      string
		line, col int
		want      int
	}{
		{"Start", 1, 1, 0},
		{"SecondWord", 1, 8, 7},
		{"PastTheLineEnd", 1, 40, 8},
		{"AfterAnAstralCharacter", 2, 5, 14}, // "# é😀" is 5 UTF-16 units
		{"TabIsOneColumn", 3, 7, 23},
		{"PastTheEnd", 9, 1, 25},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := playground.EditorOffset(text, tt.line, tt.col); got != tt.want {
				t.Fatalf("EditorOffset(%d, %d) = %d, want %d", tt.line, tt.col, got, tt.want)
			}
		})
	}
}
