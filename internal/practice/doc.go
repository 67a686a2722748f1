// Package practice is the interview trainer: the playground's practice
// mode, decided natively and tested here; the page (wasm) only asks and
// shows, through one seam, a [Trainer].
//
// [Questions] asks, before a step that changes something, the questions
// that fit it (which task next hands out, which tasks change state and to
// what, whether a submit is refused and the cycle's path, the reason the dead-letter queue shows, what a
// redrive releases and what stays blocked by whom, when a lease expires or
// a retry falls due), each with its right answer taken from the queue's
// events and a why naming the rule ([Topic]); [Question.Grade] accepts the
// right answer and refuses every other. [Exercises] are the written sets
// at [L4], [L5] and [L6]; [Generate] makes a random one from a seed. A
// [Practice] walks an exercise question by question and scores it, a
// [Progress] is what the browser keeps between visits, [PracticeLink] is
// the practice part of an address (read by package playground; [ReadLink]
// checks the exercise it names), and [Rubric] is what an answer to the
// interview question covers, level by level.
//
// A [Trainer] is what the page holds: the exercise a link names, the
// learner's progress, the form's answers ([Trainer.Check]). The trainer
// builds on package playground (links, explanations, the page's
// session); playground does not import it.
package practice
