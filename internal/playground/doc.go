// Package playground is the playground's brain: everything the page in the
// browser shows and does, decided natively and tested natively. The page
// (package main under wasm/) only draws what a [Page] says and forwards
// clicks and keys to it.
//
// A [Page] holds a [session.Session] — the script, its steps and the step
// shown — with the library scenario it is, the strategy, the embed mode and
// an undo history. It decides:
//
//   - what an address means and what the address bar should say
//     ([ParseLink], [Page.Open], [Page.Address]): tolerant, so that one bad
//     parameter is reported and left out, never the whole link; a library
//     scenario links by name while unchanged, any other script by its text,
//     deflated when long ([EncodeScript]);
//   - stepping and acting ([Page.Seek], [Page.Act], [Page.Undo]): acting at
//     an earlier step branches, dropping the later commands, and Undo brings
//     them back;
//   - what a click or a key does ([Page.ClickTask], [KeyFor],
//     [PopoverCommand]);
//   - what the page says ([Explain], [Page.Caption], [Page.Banner],
//     [Page.Timeline], [Page.Visits], [Page.ReadyLine], [Page.DLQ],
//     [Page.Counts], [Page.Task]) and what it redraws ([Page.Changed],
//     [Page.Focus], [Schedule]);
//   - how play paces its steps ([Pace]) and, too quick to animate, what
//     each frame does ([Frames]: one job at most, so that a loaded machine
//     skips steps rather than frames);
//   - where an error of the script is in the editor ([ErrorSelection],
//     counted in UTF-16 as browsers count);
//   - and that a panic in a handler is reported, not fatal ([Guard]).
//
// Practice mode lives in package practice, which asks and grades; the
// playground reads an address's practice part ([PracticeLink], its
// [Level]) and shows a practice's session ([Page.ShowPractice]).
//
// Nothing here imports syscall/js; a Page is plain data and functions.
package playground
