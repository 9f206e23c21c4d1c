package courses_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/vetclube/vetclube/core/courses"
	"github.com/vetclube/vetclube/core/engagement"
)

// learner is one learner in one course.
type learner struct {
	e      *env
	t      *testing.T
	course string
	user   string
}

func (l learner) enrol() {
	l.t.Helper()
	if _, err := l.e.svc.Enrol(context.Background(), l.course, l.user); err != nil {
		l.t.Fatalf("enrol: %v", err)
	}
}

func (l learner) complete(lesson string) courses.ProgressAnswer {
	l.t.Helper()
	a, err := l.e.finish(context.Background(), l.course, lesson, l.user)
	if err != nil {
		l.t.Fatalf("complete: %v", err)
	}
	return a
}

func (l learner) watch(lesson string, duration float64, position float64, ranges ...engagement.Range) courses.ProgressAnswer {
	l.t.Helper()
	a, err := l.e.svc.RecordProgress(context.Background(), l.course, lesson, l.user,
		engagement.ProgressUpdate{PositionSeconds: position, DurationSeconds: duration, Watched: ranges})
	if err != nil {
		l.t.Fatalf("progress: %v", err)
	}
	return a
}

func (l learner) detail() courses.Detail {
	l.t.Helper()
	d, err := l.e.svc.Detail(context.Background(), l.course, l.user)
	if err != nil {
		l.t.Fatalf("detail: %v", err)
	}
	return d
}

// addLesson publishes a new lesson at the end of module mod (republishing it).
func (e *env) addLesson(t *testing.T, mod string, lessons []string, extra map[string]any) (string, []string) {
	t.Helper()
	id := e.lesson(t, fmt.Sprintf("Aula nova %d", e.seq.Add(1)), extra)
	lessons = append(append([]string{}, lessons...), id)
	e.edit(t, mod, map[string]any{"lessons": lessons})
	return id, lessons
}

// At least 20 enrolment/completion scenarios of the progress rule:
// progress = completed ÷ required published lessons; optional and
// unpublished lessons do not count; a finished course stays finished when
// lessons are added; completion pays 200 VetCoins once (50 for enrolling).
func TestProgressRule(t *testing.T) {
	e := newEnv(t)
	type want struct {
		progress  int
		completed bool
		points    int
	}
	cases := []struct {
		name string
		run  func(t *testing.T) (learner, want)
	}{
		{"one required lesson completed", func(t *testing.T) (learner, want) {
			c, ls := e.simpleCourse(t, "Um", 1)
			_, u := e.user(t, true)
			l := learner{e, t, c, u}
			l.enrol()
			l.complete(ls[0])
			return l, want{100, true, 250}
		}},
		{"enrolled, nothing done", func(t *testing.T) (learner, want) {
			c, _ := e.simpleCourse(t, "Nada", 2)
			_, u := e.user(t, true)
			l := learner{e, t, c, u}
			l.enrol()
			return l, want{0, false, 50}
		}},
		{"half of two", func(t *testing.T) (learner, want) {
			c, ls := e.simpleCourse(t, "Metade", 2)
			_, u := e.user(t, true)
			l := learner{e, t, c, u}
			l.enrol()
			l.complete(ls[1])
			return l, want{50, false, 50}
		}},
		{"one of three rounds down", func(t *testing.T) (learner, want) {
			c, ls := e.simpleCourse(t, "Terço", 3)
			_, u := e.user(t, true)
			l := learner{e, t, c, u}
			l.enrol()
			l.complete(ls[0])
			return l, want{33, false, 50}
		}},
		{"optional lesson not needed to finish", func(t *testing.T) (learner, want) {
			req := e.lesson(t, "Obrigatória", nil)
			opt := e.lesson(t, "Opcional", map[string]any{"is_optional": true})
			c := e.course(t, "Com opcional", nil, e.module(t, "M", req, opt))
			_, u := e.user(t, true)
			l := learner{e, t, c, u}
			l.enrol()
			l.complete(req)
			return l, want{100, true, 250}
		}},
		{"optional lesson alone counts nothing", func(t *testing.T) (learner, want) {
			req := e.lesson(t, "Obrigatória", nil)
			opt := e.lesson(t, "Opcional", map[string]any{"is_optional": true})
			c := e.course(t, "Só opcional feita", nil, e.module(t, "M", req, opt))
			_, u := e.user(t, true)
			l := learner{e, t, c, u}
			l.enrol()
			l.complete(opt)
			return l, want{0, false, 50}
		}},
		{"lesson added later lowers an unfinished learner", func(t *testing.T) (learner, want) {
			a, b := e.lesson(t, "A", nil), e.lesson(t, "B", nil)
			m := e.module(t, "M", a, b)
			c := e.course(t, "Cresce", nil, m)
			_, u := e.user(t, true)
			l := learner{e, t, c, u}
			l.enrol()
			l.complete(a)
			e.addLesson(t, m, []string{a, b}, nil)
			return l, want{33, false, 50}
		}},
		{"lesson added later keeps a finished learner finished", func(t *testing.T) (learner, want) {
			a := e.lesson(t, "A", nil)
			m := e.module(t, "M", a)
			c := e.course(t, "Cresce depois", nil, m)
			_, u := e.user(t, true)
			l := learner{e, t, c, u}
			l.enrol()
			l.complete(a)
			e.addLesson(t, m, []string{a}, nil)
			return l, want{100, true, 250}
		}},
		{"finished learner completes the added lesson: no second payment", func(t *testing.T) (learner, want) {
			a := e.lesson(t, "A", nil)
			m := e.module(t, "M", a)
			c := e.course(t, "Sem pagar duas vezes", nil, m)
			_, u := e.user(t, true)
			l := learner{e, t, c, u}
			l.enrol()
			l.complete(a)
			n, _ := e.addLesson(t, m, []string{a}, nil)
			l.complete(n)
			return l, want{100, true, 250}
		}},
		{"unpublished remaining lesson completes the course", func(t *testing.T) (learner, want) {
			c, ls := e.simpleCourse(t, "Despublica", 3)
			_, u := e.user(t, true)
			l := learner{e, t, c, u}
			l.enrol()
			l.complete(ls[0])
			l.complete(ls[1])
			e.unpublish(t, ls[2])
			return l, want{100, true, 250} // settled when the course page opens
		}},
		{"unpublished completed lesson no longer counts", func(t *testing.T) (learner, want) {
			c, ls := e.simpleCourse(t, "Despublica feita", 2)
			_, u := e.user(t, true)
			l := learner{e, t, c, u}
			l.enrol()
			l.complete(ls[0])
			e.unpublish(t, ls[0])
			return l, want{0, false, 50}
		}},
		{"lesson made optional later", func(t *testing.T) (learner, want) {
			c, ls := e.simpleCourse(t, "Vira opcional", 2)
			_, u := e.user(t, true)
			l := learner{e, t, c, u}
			l.enrol()
			l.complete(ls[0])
			e.edit(t, ls[1], map[string]any{"is_optional": true})
			return l, want{100, true, 250}
		}},
		{"marking twice is once", func(t *testing.T) (learner, want) {
			c, ls := e.simpleCourse(t, "Duas vezes", 1)
			_, u := e.user(t, true)
			l := learner{e, t, c, u}
			l.enrol()
			l.enrol()
			l.complete(ls[0])
			l.complete(ls[0])
			return l, want{100, true, 250}
		}},
		{"watched 90 % completes", func(t *testing.T) (learner, want) {
			c, ls := e.simpleCourse(t, "Assistida", 1)
			_, u := e.user(t, true)
			l := learner{e, t, c, u}
			l.enrol()
			a := l.watch(ls[0], 600, 540, engagement.Range{Start: 0, End: 540})
			if !a.Lesson.IsCompleted || !a.Course.JustCompleted || a.Course.PointsAwarded != 200 {
				t.Errorf("answer: %+v", a)
			}
			return l, want{100, true, 250}
		}},
		{"scrubbing to the end does not complete", func(t *testing.T) (learner, want) {
			c, ls := e.simpleCourse(t, "Pulou", 1)
			_, u := e.user(t, true)
			l := learner{e, t, c, u}
			l.enrol()
			a := l.watch(ls[0], 600, 600, engagement.Range{Start: 0, End: 30}, engagement.Range{Start: 590, End: 600})
			if a.Lesson.IsCompleted || a.Lesson.PositionSeconds != 600 {
				t.Errorf("answer: %+v", a.Lesson)
			}
			return l, want{0, false, 50}
		}},
		{"overlapping ranges out of order merge", func(t *testing.T) (learner, want) {
			c, ls := e.simpleCourse(t, "Sobrepostas", 1)
			_, u := e.user(t, true)
			l := learner{e, t, c, u}
			l.enrol()
			l.watch(ls[0], 600, 500, engagement.Range{Start: 300, End: 500}, engagement.Range{Start: 0, End: 200})
			a := l.watch(ls[0], 600, 560, engagement.Range{Start: 150, End: 350}, engagement.Range{Start: 480, End: 545})
			if len(a.Lesson.Watched) != 1 || a.Lesson.Watched[0] != (engagement.Range{Start: 0, End: 545}) || !a.Lesson.IsCompleted {
				t.Errorf("merged: %+v", a.Lesson)
			}
			return l, want{100, true, 250}
		}},
		{"the same seconds watched twice count once", func(t *testing.T) (learner, want) {
			c, ls := e.simpleCourse(t, "Repetida", 1)
			_, u := e.user(t, true)
			l := learner{e, t, c, u}
			l.enrol()
			for range 5 {
				l.watch(ls[0], 600, 300, engagement.Range{Start: 0, End: 300})
			}
			return l, want{0, false, 50}
		}},
		{"text lesson read to the end", func(t *testing.T) (learner, want) {
			txt := e.lesson(t, "Leitura", map[string]any{"video_source": nil, "youtube_url": nil, "duration": nil, "body": "Texto"})
			c := e.course(t, "Lida", nil, e.module(t, "M", txt))
			_, u := e.user(t, true)
			l := learner{e, t, c, u}
			l.enrol()
			hundred := 100.0
			if _, err := e.svc.RecordProgress(context.Background(), c, txt, u, engagement.ProgressUpdate{Percent: &hundred}); err != nil {
				t.Fatal(err)
			}
			return l, want{100, true, 250}
		}},
		{"free lessons done before enrolling count on enrolment", func(t *testing.T) (learner, want) {
			a := e.lesson(t, "Livre A", map[string]any{"is_free": true})
			b := e.lesson(t, "Livre B", map[string]any{"is_free": true})
			c := e.course(t, "Grátis", nil, e.module(t, "M", a, b))
			_, u := e.user(t, false)
			l := learner{e, t, c, u}
			l.complete(a)
			l.complete(b)
			if d := l.detail(); d.Progress != 0 || d.IsEnrolled {
				t.Errorf("not enrolled yet: %d", d.Progress)
			}
			l.enrol()
			return l, want{100, true, 250}
		}},
		{"one free lesson done, then enrolled", func(t *testing.T) (learner, want) {
			a := e.lesson(t, "Livre", map[string]any{"is_free": true})
			b := e.lesson(t, "Paga", nil)
			c := e.course(t, "Meio grátis", nil, e.module(t, "M", a, b))
			_, u := e.user(t, true)
			l := learner{e, t, c, u}
			l.complete(a)
			l.enrol()
			return l, want{50, false, 50}
		}},
		{"second module unpublished", func(t *testing.T) (learner, want) {
			a, b := e.lesson(t, "A", nil), e.lesson(t, "B", nil)
			m1, m2 := e.module(t, "M1", a), e.module(t, "M2", b)
			c := e.course(t, "Dois módulos", nil, m1, m2)
			_, u := e.user(t, true)
			l := learner{e, t, c, u}
			l.enrol()
			l.complete(a)
			if d := l.detail(); d.Progress != 50 {
				t.Errorf("before: %d", d.Progress)
			}
			e.unpublish(t, m2)
			return l, want{100, true, 250}
		}},
		{"lesson moved to another module keeps its completion", func(t *testing.T) (learner, want) {
			a, b, x := e.lesson(t, "A", nil), e.lesson(t, "B", nil), e.lesson(t, "C", nil)
			m1, m2 := e.module(t, "M1", a, b), e.module(t, "M2", x)
			c := e.course(t, "Reordenado", nil, m1, m2)
			_, u := e.user(t, true)
			l := learner{e, t, c, u}
			l.enrol()
			l.complete(b)
			e.edit(t, m2, map[string]any{"lessons": []string{b, x}})
			e.edit(t, m1, map[string]any{"lessons": []string{a}})
			d := l.detail()
			if d.Modules[1].Lessons[0].ID != b || !d.Modules[1].Lessons[0].IsCompleted {
				t.Errorf("moved lesson: %+v", d.Modules[1].Lessons)
			}
			return l, want{33, false, 50}
		}},
		{"a lesson shared by two courses counts in both", func(t *testing.T) (learner, want) {
			a := e.lesson(t, "Compartilhada", nil)
			m := e.module(t, "M", a)
			c1 := e.course(t, "Primeiro", nil, m)
			c2 := e.course(t, "Segundo", nil, m)
			_, u := e.user(t, true)
			l1, l2 := learner{e, t, c1, u}, learner{e, t, c2, u}
			l1.enrol()
			l2.enrol()
			l1.complete(a)
			if d := l2.detail(); !d.IsCompleted || d.Progress != 100 {
				t.Errorf("other course: %d %v", d.Progress, d.IsCompleted)
			}
			return l2, want{100, true, 500}
		}},
		{"last two lessons finished at the same moment", func(t *testing.T) (learner, want) {
			c, ls := e.simpleCourse(t, "Simultâneas", 3)
			_, u := e.user(t, true)
			l := learner{e, t, c, u}
			l.enrol()
			l.complete(ls[0])
			var wg sync.WaitGroup
			for _, id := range ls[1:] {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if _, err := e.finish(context.Background(), c, id, u); err != nil {
						t.Error(err)
					}
				}()
			}
			wg.Wait()
			return l, want{100, true, 250}
		}},
	}
	if len(cases) < 20 {
		t.Fatalf("only %d scenarios", len(cases))
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l, w := tc.run(t)
			l.t = t
			d := l.detail()
			if d.Progress != w.progress || d.IsCompleted != w.completed {
				t.Errorf("progress %d completed %v, want %d %v", d.Progress, d.IsCompleted, w.progress, w.completed)
			}
			if got := e.balance(t, l.user); got != w.points {
				t.Errorf("course VetCoins %d, want %d", got, w.points)
			}
			// The catalogue agrees with the course page.
			p, err := e.svc.List(context.Background(), l.user, courses.Filter{Status: courses.StatusEnrolled, Page: 1})
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range p.Courses {
				if c.ID == d.ID && (c.Progress != w.progress || c.IsCompleted != w.completed) {
					t.Errorf("catalogue card: %d %v", c.Progress, c.IsCompleted)
				}
			}
			if w.completed && d.MyCertificate == nil {
				t.Error("completed without a certificate")
			}
			if !w.completed && d.Continue == nil {
				t.Error("unfinished without a 'Continuar' target")
			}
		})
	}
}
