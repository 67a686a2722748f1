package practice

import "github.com/dagq/dagq/internal/playground"

// PracticeKey decides what a key, as [playground.KeyFor] read it, does while an
// exercise is practised (p; nil when not practising): the timeline is
// locked until the exercise is done, since a step forward, End or play
// would show the answers to the questions still to come, and Enter on a
// task would act on the queue; → once the question is answered goes on to
// the next question. Zoom and Escape stay as they are.
func PracticeKey(k playground.Key, p *Practice) playground.Key {
	if p == nil || p.Done() {
		return k
	}
	switch k {
	case playground.KeyForward:
		if _, graded := p.Graded(); graded {
			return playground.KeyNextQuestion
		}
		return playground.KeyNone
	case playground.KeyBack, playground.KeyFirst, playground.KeyLast, playground.KeyPlayPause, playground.KeyUndo, playground.KeyActTask:
		return playground.KeyNone
	}
	return k
}
