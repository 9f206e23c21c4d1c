package courses_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/courses"
	"github.com/vetclube/vetclube/core/editorial"
	"github.com/vetclube/vetclube/core/engagement"
)

// pluginDir holds the real cursos plugin, built once for the package.
var pluginDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "cursos-plugin-")
	if err != nil {
		panic(err)
	}
	bin := filepath.Join(dir, "cursos")
	cmd := exec.Command("go", "build", "-o", bin, "../../plugins/cursos")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		panic(fmt.Sprintf("build plugin: %v", err))
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		panic(err)
	}
	sum := sha256.Sum256(data)
	if err := os.WriteFile(bin+".sha256", []byte(hex.EncodeToString(sum[:])+"  cursos\n"), 0o644); err != nil {
		panic(err)
	}
	pluginDir = dir
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// env is a running app with the cursos plugin, an editor and a revisor.
type env struct {
	srv             *apptest.Server
	svc             *courses.Service
	editor, revisor content.Actor
	category        string
	instructor      string
	seq             atomic.Int64
}

func newEnv(t *testing.T) *env {
	t.Helper()
	srv := apptest.Start(t, map[string]string{"PLUGINS_DIR": pluginDir})
	for _, typ := range []string{courses.TypeCourse, courses.TypeModule, courses.TypeLesson, courses.TypeCategory, courses.TypeInstructor} {
		if _, ok := srv.App.Content.Registry.Get(typ); !ok {
			t.Fatalf("the cursos plugin did not register %s", typ)
		}
	}
	_, ed := srv.SignedIn(t, "editora@teste.dev", "editor")
	_, rev := srv.SignedIn(t, "revisor@teste.dev", "revisor")
	e := &env{srv: srv, svc: srv.App.Courses, editor: content.Actor{UserID: ed, Channel: content.ChannelBackoffice},
		revisor: content.Actor{UserID: rev, Channel: content.ChannelBackoffice}}
	e.category = e.publishNew(t, courses.TypeCategory, "Clínica", map[string]any{"display_order": 1})
	e.instructor = e.publishNew(t, courses.TypeInstructor, "Dra. Ana Souza", map[string]any{"professional_title": "Médica veterinária"})
	return e
}

func (e *env) slug(prefix string) string { return fmt.Sprintf("%s-%d", prefix, e.seq.Add(1)) }

// create makes an item (not published).
func (e *env) create(t *testing.T, typ, title string, fields map[string]any) content.Item {
	t.Helper()
	it, _, err := e.srv.App.Content.Store.Create(context.Background(), e.editor, typ,
		content.Input{Slug: e.slug("i"), Title: title, Summary: "Resumo de " + title, Fields: fields}, "")
	if err != nil {
		t.Fatalf("create %s %q: %v", typ, title, err)
	}
	return it
}

// publish moves an item through the editorial workflow to published and
// returns the error of the first refused step.
func (e *env) publish(it content.Item) (content.Item, error) {
	wf := e.srv.App.Content.Workflow
	var err error
	for _, s := range []struct {
		a    content.Actor
		r    editorial.Role
		step editorial.Action
	}{{e.editor, editorial.RoleEditor, editorial.ActionSubmit}, {e.revisor, editorial.RoleRevisor, editorial.ActionApprove},
		{e.revisor, editorial.RoleRevisor, editorial.ActionPublish}} {
		next, err2 := wf.Act(context.Background(), s.a, []editorial.Role{s.r}, it.ID, it.Version, s.step, "")
		if err2 != nil {
			return it, err2
		}
		it, err = next, nil
	}
	return it, err
}

func (e *env) mustPublish(t *testing.T, it content.Item) content.Item {
	t.Helper()
	it, err := e.publish(it)
	if err != nil {
		t.Fatalf("publish %s %q: %v", it.Type, it.Title, err)
	}
	return it
}

func (e *env) publishNew(t *testing.T, typ, title string, fields map[string]any) string {
	t.Helper()
	return e.mustPublish(t, e.create(t, typ, title, fields)).ID
}

// edit changes an item's fields and publishes the change.
func (e *env) edit(t *testing.T, id string, change map[string]any) {
	t.Helper()
	ctx := context.Background()
	it, err := e.srv.App.Content.Store.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	fields := map[string]any{}
	if err := json.Unmarshal(it.Fields, &fields); err != nil {
		t.Fatal(err)
	}
	for k, v := range change {
		if v == nil {
			delete(fields, k)
		} else {
			fields[k] = v
		}
	}
	it, err = e.srv.App.Content.Store.Update(ctx, e.editor, id, it.Version, content.Input{Slug: it.Slug, Title: it.Title, Summary: it.Summary, Fields: fields})
	if err != nil {
		t.Fatalf("edit: %v", err)
	}
	e.mustPublish(t, it)
}

// unpublish takes an item offline.
func (e *env) unpublish(t *testing.T, id string) {
	t.Helper()
	_, err := e.srv.App.Content.Workflow.Act(context.Background(), e.revisor, []editorial.Role{editorial.RoleRevisor}, id, 0, editorial.ActionUnpublish, "")
	if err != nil {
		t.Fatalf("unpublish: %v", err)
	}
}

// lesson publishes a lesson; kind is "video" (YouTube, 10 minutes), "text",
// "optional" or "free".
func (e *env) lesson(t *testing.T, title string, extra map[string]any) string {
	t.Helper()
	f := map[string]any{"video_source": "youtube", "youtube_url": "https://www.youtube.com/watch?v=dQw4w9WgXcQ", "duration": "10:00"}
	for k, v := range extra {
		if v == nil {
			delete(f, k)
		} else {
			f[k] = v
		}
	}
	return e.publishNew(t, courses.TypeLesson, title, f)
}

func (e *env) module(t *testing.T, title string, lessons ...string) string {
	t.Helper()
	return e.publishNew(t, courses.TypeModule, title, map[string]any{"lessons": lessons})
}

// course publishes a course with the given modules (and the env's category
// and instructor unless fields say otherwise).
func (e *env) course(t *testing.T, title string, fields map[string]any, modules ...string) string {
	t.Helper()
	f := map[string]any{"description": "Um curso completo de " + title + " para médicos veterinários.", "category": e.category,
		"instructor": e.instructor, "level": "Iniciante", "modules": modules}
	for k, v := range fields {
		f[k] = v
	}
	return e.publishNew(t, courses.TypeCourse, title, f)
}

// simpleCourse is a course of one module with n required video lessons.
func (e *env) simpleCourse(t *testing.T, title string, n int) (courseID string, lessons []string) {
	t.Helper()
	for i := range n {
		lessons = append(lessons, e.lesson(t, fmt.Sprintf("%s — aula %d", title, i+1), nil))
	}
	return e.course(t, title, nil, e.module(t, title+" — módulo", lessons...)), lessons
}

// user creates a signed-in learner; premium makes them a premium subscriber.
func (e *env) user(t *testing.T, premium bool) (*apptest.Client, string) {
	t.Helper()
	c, id := e.srv.SignedIn(t, fmt.Sprintf("aluno%d@teste.dev", e.seq.Add(1)))
	if premium {
		if err := e.srv.App.Engagement.Subscriptions.BecomePremium(context.Background(), id, "premium_monthly"); err != nil {
			t.Fatal(err)
		}
	}
	return c, id
}

func (e *env) balance(t *testing.T, userID string) int {
	t.Helper()
	b, err := e.srv.App.Engagement.Points.Balance(context.Background(), userID)
	if err != nil {
		t.Fatal(err)
	}
	return b.CoursePoints
}

// finish completes a lesson the way a learner does: a video lesson by
// playing all of it (the player's report), a text lesson by marking it.
func (e *env) finish(ctx context.Context, course, lesson, user string) (courses.ProgressAnswer, error) {
	d, err := e.svc.Lesson(ctx, course, lesson, user)
	if err != nil {
		return courses.ProgressAnswer{}, err
	}
	if d.Video == nil {
		return e.svc.MarkComplete(ctx, course, lesson, user)
	}
	dur := float64(d.DurationSeconds)
	if dur <= 0 {
		dur = 600
	}
	return e.svc.RecordProgress(ctx, course, lesson, user,
		engagement.ProgressUpdate{PositionSeconds: dur, DurationSeconds: dur, Watched: []engagement.Range{{Start: 0, End: dur}}})
}
