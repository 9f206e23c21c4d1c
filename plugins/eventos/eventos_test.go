package main

import (
	"context"
	"testing"

	"github.com/vetclube/vetclube/plugins/sdk"
)

func TestManifestIsValid(t *testing.T) {
	if err := Plugin().Manifest.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, z := range Zones {
		if !zoneKnown(z.Value) {
			t.Errorf("zone %s does not load", z.Value)
		}
	}
}

func TestValidate(t *testing.T) {
	check := func(fields map[string]any) sdk.ContentCheck {
		t.Helper()
		c, err := Validate(context.Background(), nil, sdk.ContentItem{Type: TypeID, Fields: fields})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	c := check(map[string]any{"online": false})
	if c.Errors["location"] != MsgLocationNeeded || c.Computed["is_active"] != true {
		t.Fatalf("in person without a place: %+v", c)
	}
	if c := check(map[string]any{"online": true}); c.Errors["meeting_url"] != MsgMeetingURLNeeded {
		t.Fatalf("online without a link: %+v", c)
	}
	if c := check(map[string]any{"location": "Sala 2", "max_participants": 10.5}); c.Errors["max_participants"] != MsgWholeSeats {
		t.Fatalf("half a seat: %+v", c)
	}
	if c := check(map[string]any{"location": "Sala 2", "event_time": "19:00", "end_time": "19:00"}); c.Errors["end_time"] != MsgEndSameAsStart {
		t.Fatalf("zero length: %+v", c)
	}
	c = check(map[string]any{"location": "Sala 2", "cancelled": true, "max_participants": 30.0})
	if c.Errors != nil || c.Computed["is_active"] != false {
		t.Fatalf("cancelled event: %+v", c)
	}
}
