package playground_test

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	pg "github.com/dagq/dagq/internal/playground"
)

// TestDecodeLiveStateReadsWhatEncodingJSONWrites: random states, their
// names and errors drawn from an alphabet with quotes, backslashes,
// brackets, control characters and runes beyond the basic plane, written
// by encoding/json, read back alike. The seed is printed.
func TestDecodeLiveStateReadsWhatEncodingJSONWrites(t *testing.T) {
	const seed = 20261202
	rng := rand.New(rand.NewPCG(seed, 3))
	alphabet := []string{"a", "b", "-", "\"", "\\", "[", "]", "{", "}", ",", ":", " ", "\n", "\t", "\x01", "é", "😀", "<", "&", "\u2028", "/"}
	word := func() string {
		var b strings.Builder
		for range rng.IntN(6) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	for i := range 500 {
		st := pg.LiveState{DAG: word()}
		for range rng.IntN(8) {
			task := []string{word(), word()}
			for range rng.IntN(3) {
				task = append(task, word())
			}
			st.Tasks = append(st.Tasks, task)
			if rng.IntN(2) == 0 {
				st.Ready = append(st.Ready, rng.IntN(100)-1)
			}
			if rng.IntN(3) == 0 {
				st.DLQ = append(st.DLQ, pg.LiveEntry{Task: rng.IntN(100), Root: rng.IntN(5) - 1, Reason: word(), Error: word(),
					Attempts: rng.IntN(4), Poisoned: rng.IntN(2) == 0, Blocks: rng.IntN(9)})
			}
		}
		if rng.IntN(3) == 0 {
			st.Alert = &pg.LiveAlert{Entries: rng.IntN(9), WindowMs: rng.Int64N(1e6)}
		}
		if rng.IntN(3) == 0 {
			st.Redrive = &pg.LiveRedrive{Done: rng.IntN(9), Total: rng.IntN(9), N: rng.IntN(3), PerMs: rng.Int64N(1e4)}
		}
		data, err := json.Marshal(st)
		if err != nil {
			t.Fatal(err)
		}
		if rng.IntN(4) == 0 {
			data, _ = json.MarshalIndent(st, " ", "\t")
		}
		got, err := pg.DecodeLiveState(string(data))
		if err != nil {
			t.Fatalf("seed %d, state %d: %v\n%s", seed, i, err, data)
		}
		var want pg.LiveState
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("seed %d, state %d: read\n%+v\nwant\n%+v\nof\n%s", seed, i, got, want, data)
		}
	}
}

func TestDecodeLiveStateSkipsWhatItDoesNotKnowAndRefusesWhatIsNotJSON(t *testing.T) {
	st, err := pg.DecodeLiveState(`{"version":[1,{"x":null}],"dag":"d","extra":-1.5e3,"tasks":[["a\u00e9\ud83d\ude00","READY"]],"ready":[0],"alert":null,"ok":true}`)
	if err != nil || st.DAG != "d" || len(st.Tasks) != 1 || st.Tasks[0][0] != "aé😀" || st.Alert != nil {
		t.Errorf("%+v %v", st, err)
	}
	for _, bad := range []string{``, `[]`, `{"dag":1}`, `{"tasks":[["a",1]]}`, `{"tasks":[["a"]`, `{"ready":["0"]}`, `{"dag":"a\q"}`,
		`{"dag":"a` + "\x01" + `"}`, `{"dag":"a"} x`, `{"dag" "a"}`, `{"dlq":[{"poisoned":1}]}`, `{"x":tru}`} {
		if _, err := pg.DecodeLiveState(bad); err == nil || !strings.Contains(err.Error(), "at byte") {
			t.Errorf("%q: %v, want an error saying where", bad, err)
		}
	}
}
