// Command eventos is VetClube's events content type: the core stores the
// events, runs their editorial workflow, keeps sign-ups, the waiting list
// and the reminders; this plugin declares the type (its fields, its page at
// /eventos) and answers the ValidateContent hook: the place or the meeting
// link an event needs, sane times, and whether it is active.
package main

import "github.com/vetclube/vetclube/plugins/sdk"

func main() {
	sdk.Serve(Plugin())
}
