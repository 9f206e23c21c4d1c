// Command cursos is VetClube's courses content plugin: it declares the
// course, module, lesson, course category and instructor types (their
// fields, the course pages at /cursos) and answers the write hooks that
// need only the item itself: a lesson's duration and video links, its
// materials list, and the refusal to publish a lesson with nothing to play
// or read, or a module without lessons. What needs several items (a
// course's curriculum, its category and instructor) is checked by the core
// (core/courses) when a course is published, because a plugin cannot read
// other items.
package main

import "github.com/vetclube/vetclube/plugins/sdk"

func main() {
	sdk.Serve(Plugin())
}
