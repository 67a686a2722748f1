package core

// fifo is the READY line: tasks leave from the front in the order they
// joined the back. Push and pop are amortized O(1).
type fifo struct {
	buf  []int32
	head int // buf[head:] is the line
}

func (f *fifo) push(v int32) { f.buf = append(f.buf, v) }

func (f *fifo) pop() (int32, bool) {
	if f.head == len(f.buf) {
		return 0, false
	}
	v := f.buf[f.head]
	f.head++
	if f.head == len(f.buf) {
		f.buf, f.head = f.buf[:0], 0
	} else if f.head >= 1024 && f.head*2 >= len(f.buf) {
		n := copy(f.buf, f.buf[f.head:])
		f.buf, f.head = f.buf[:n], 0
	}
	return v, true
}

func (f *fifo) items() []int32 { return f.buf[f.head:] }
