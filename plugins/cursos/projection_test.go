package main

import (
	"testing"

	"github.com/vetclube/vetclube/plugins/sdk/sdktest"
)

// The core's read model of this plugin's content is filled by a trigger
// that reads the published fields by name; every name it reads must be one
// this plugin declares.
func TestProjectionReadsDeclaredFields(t *testing.T) {
	sdktest.CheckProjection(t, "../../migrations", "course_listings_sync", Plugin().Manifest.ContentTypes)
}
