package courses

import (
	"context"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/engagement"
	"github.com/vetclube/vetclube/core/text"
)

// curLesson is one lesson of a course's published curriculum with the
// reader's state.
type curLesson struct {
	moduleID, moduleTitle, moduleDesc string
	modulePos                         int
	LessonSummary
}

// LessonSummary is a lesson in the curriculum.
type LessonSummary struct {
	ID              string  `json:"id"`
	Title           string  `json:"title"`
	Description     string  `json:"description"`
	Order           int     `json:"order"`
	Duration        string  `json:"duration"`
	DurationSeconds int     `json:"duration_seconds"`
	IsFree          bool    `json:"is_free"`
	IsOptional      bool    `json:"is_optional"`
	VideoSource     string  `json:"video_source"`
	IsCompleted     bool    `json:"is_completed"`
	PositionSeconds float64 `json:"position_seconds"`
	CanAccess       bool    `json:"can_access"`
	position        int
}

// Module is a module of the curriculum.
type Module struct {
	ID              string          `json:"id"`
	Title           string          `json:"title"`
	Description     string          `json:"description"`
	Order           int             `json:"order"`
	Duration        string          `json:"duration"`
	DurationSeconds int             `json:"duration_seconds"`
	Lessons         []LessonSummary `json:"lessons"`
}

// Continue is where 'Continuar' leads.
type Continue struct {
	LessonID        string  `json:"lesson_id"`
	ModuleID        string  `json:"module_id"`
	PositionSeconds float64 `json:"position_seconds"`
}

// curriculum reads course courseID's published curriculum in order with
// readerID's completions and saved positions. A lesson whose editor left the
// duration blank shows its uploaded video's measured duration.
func (s *Service) curriculum(ctx context.Context, courseID, readerID string) ([]curLesson, error) {
	rows, err := s.pool.Query(ctx, `SELECT cc.module_id, m.title, m.description, cc.module_position, cc.lesson_id, l.title,
			l.description, cc.lesson_position, cc.position,
			CASE WHEN l.duration_seconds > 0 THEN l.duration_seconds ELSE coalesce(ceil(a.duration_seconds)::int, 0) END,
			l.is_free, l.is_optional, l.video_source,
			lc.user_id IS NOT NULL, coalesce(p.position_seconds, 0)
		FROM course_curriculum cc
		JOIN course_modules m ON m.item_id = cc.module_id
		JOIN course_lessons l ON l.item_id = cc.lesson_id
		LEFT JOIN media_public a ON a.id = l.video_asset AND l.video_source = 'upload'
		LEFT JOIN course_lesson_completions lc ON lc.lesson_id = cc.lesson_id AND lc.user_id = nullif($2, '')::uuid
		`+engagement.ProgressJoinSQL("p", "cc.lesson_id", "nullif($2, '')::uuid")+`
		WHERE cc.course_id = $1 ORDER BY cc.position`, courseID, readerID)
	if err != nil {
		return nil, wrap("curriculum", err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (curLesson, error) {
		var c curLesson
		err := r.Scan(&c.moduleID, &c.moduleTitle, &c.moduleDesc, &c.modulePos, &c.ID, &c.Title, &c.Description, &c.Order,
			&c.position, &c.DurationSeconds, &c.IsFree, &c.IsOptional, &c.VideoSource, &c.IsCompleted, &c.PositionSeconds)
		c.Duration = text.Duration(c.DurationSeconds)
		return c, err
	})
	return list, wrap("curriculum", err)
}

// continueTarget is the first unfinished required lesson, at its saved
// position (nil when every required lesson is done).
func continueTarget(cur []curLesson) *Continue {
	for _, l := range cur {
		if !l.IsOptional && !l.IsCompleted {
			return &Continue{LessonID: l.ID, ModuleID: l.moduleID, PositionSeconds: l.PositionSeconds}
		}
	}
	return nil
}

func modulesOf(cur []curLesson) []Module {
	mods := []Module{}
	for _, l := range cur {
		if len(mods) == 0 || mods[len(mods)-1].ID != l.moduleID {
			mods = append(mods, Module{ID: l.moduleID, Title: l.moduleTitle, Description: l.moduleDesc, Order: l.modulePos, Lessons: []LessonSummary{}})
		}
		m := &mods[len(mods)-1]
		m.Lessons = append(m.Lessons, l.LessonSummary)
		m.DurationSeconds += l.DurationSeconds
	}
	for i := range mods {
		mods[i].Duration = text.Duration(mods[i].DurationSeconds)
	}
	return mods
}

// course is a published course as the learner's requests need it.
type course struct {
	Card
	fullDescription, videoIntro, learn, requirements, objectives string
	certificate                                                  bool
	certificateHours                                             *int
	lessonsCount, requiredLessons                                int
	enrolledAt, completedAt                                      *time.Time
	counted                                                      bool
}

// getCourse reads the published course named by idOrSlug with readerID's state.
func (s *Service) getCourse(ctx context.Context, idOrSlug, readerID string) (course, error) {
	var c course
	by := "l.slug = $2"
	if validUUID(idOrSlug) {
		by = "l.item_id = $2::uuid"
	}
	card, err := scanCard(s.pool.QueryRow(ctx, `SELECT `+cardColumns+`, l.description, l.video_intro, l.what_you_will_learn,
			l.requirements, l.objectives, l.certificate, l.certificate_hours, l.lessons_count, l.required_lessons,
			e.enrolled_at, e.completed_at, coalesce(e.counted_in_limit, false)`+cardFrom+`
		WHERE l.published AND `+by, readerID, strings.ToLower(idOrSlug)),
		&c.fullDescription, &c.videoIntro, &c.learn, &c.requirements, &c.objectives, &c.certificate, &c.certificateHours,
		&c.lessonsCount, &c.requiredLessons, &c.enrolledAt, &c.completedAt, &c.counted)
	if err == pgx.ErrNoRows {
		return c, core.Errorf(core.ENOTFOUND, MsgCourseNotFound)
	}
	if err != nil {
		return c, wrap("course", err)
	}
	c.Card = card
	return c, nil
}

// premiumAccess says whether userID's subscription opens every lesson
// (premium or an active trial).
func (s *Service) premiumAccess(ctx context.Context, userID string) (bool, error) {
	v, err := s.subs.View(ctx, userID)
	if err != nil {
		return false, wrap("subscription", err)
	}
	return v.IsPremium || v.TrialActive, nil
}

// canAccess applies the access rule to one lesson: free lessons are open to
// every signed-in user; the others need the enrolment, and the enrolment
// needs premium, an active trial or to have been counted in the
// non-premium courses limit.
func canAccess(c course, free, premium bool) error {
	switch {
	case free:
		return nil
	case c.enrolledAt == nil:
		return refuse(AccessNotEnrolled, MsgNotEnrolled)
	case c.counted || premium:
		return nil
	default:
		return refuse(AccessPremium, MsgPremium)
	}
}

// Detail is the course page.
type Detail struct {
	Card
	VideoIntro      *Video       `json:"video_intro"`
	Requirements    []string     `json:"requirements"`
	Objectives      []string     `json:"objectives"`
	WhatYouLearn    []string     `json:"what_you_will_learn"`
	Certificate     bool         `json:"certificate"`
	Modules         []Module     `json:"modules"`
	LessonsCount    int          `json:"lessons_count"`
	RequiredLessons int          `json:"required_lessons"`
	CompletedCount  int          `json:"completed_lessons"`
	Continue        *Continue    `json:"continue"`
	EnrolledAt      *time.Time   `json:"enrolled_at"`
	CompletedAt     *time.Time   `json:"completed_at"`
	MyCertificate   *Certificate `json:"my_certificate"`
}

// Detail returns the course page for readerID. A learner whom curriculum
// changes brought to 100 % (a required lesson unpublished) completes here.
func (s *Service) Detail(ctx context.Context, idOrSlug, readerID string) (Detail, error) {
	c, err := s.getCourse(ctx, idOrSlug, readerID)
	if err != nil {
		return Detail{}, err
	}
	if c.IsEnrolled && !c.IsCompleted && c.Progress == 100 {
		if _, err := s.settle(ctx, c.ID, readerID, "", ""); err != nil {
			return Detail{}, err
		}
		if c, err = s.getCourse(ctx, idOrSlug, readerID); err != nil {
			return Detail{}, err
		}
	}
	cur, err := s.curriculum(ctx, c.ID, readerID)
	if err != nil {
		return Detail{}, err
	}
	premium := false
	if c.IsEnrolled && !c.counted {
		if premium, err = s.premiumAccess(ctx, readerID); err != nil {
			return Detail{}, err
		}
	}
	done := 0
	for i := range cur {
		cur[i].CanAccess = canAccess(c, cur[i].IsFree, premium) == nil
		if cur[i].IsCompleted && !cur[i].IsOptional {
			done++
		}
	}
	d := Detail{Card: c.Card, VideoIntro: videoFromURL(c.videoIntro), Requirements: lines(c.requirements),
		Objectives: lines(c.objectives), WhatYouLearn: lines(c.learn), Certificate: c.certificate, Modules: modulesOf(cur),
		LessonsCount: c.lessonsCount, RequiredLessons: c.requiredLessons, CompletedCount: done, Continue: continueTarget(cur),
		EnrolledAt: c.enrolledAt, CompletedAt: c.completedAt}
	d.Description = c.fullDescription
	if c.completedAt != nil {
		cert, err := s.certificateOf(ctx, c.ID, readerID)
		if err != nil {
			return Detail{}, err
		}
		d.MyCertificate = cert
	}
	return d, nil
}

// lessonRow is a lesson's reading-model row.
type lessonRow struct {
	id, title, description, body, cover                                  string
	linkURL, linkTitle, supportURL, supportTitle, supportType, materials string
	duration                                                             int
	free, optional                                                       bool
	video                                                                VideoFields
}

func (s *Service) lessonRow(ctx context.Context, lessonID string) (lessonRow, error) {
	var l lessonRow
	err := s.pool.QueryRow(ctx, `SELECT l.item_id, l.title, l.description, l.body, l.video_source, l.youtube_url, l.vimeo_url,
			l.stream_url, l.cover_image, l.external_link_url, l.external_link_title, l.support_material_url,
			l.support_material_title, l.support_material_type, l.materials, l.duration_seconds, l.is_free, l.is_optional,
			coalesce(m.state, ''), coalesce(m.stream_key, ''), coalesce(m.poster_url, ''), coalesce(m.duration_seconds, 0)
		FROM course_lessons l
		LEFT JOIN media_public m ON m.id = l.video_asset AND l.video_source = 'upload'
		WHERE l.item_id = $1 AND l.published`, lessonID).
		Scan(&l.id, &l.title, &l.description, &l.body, &l.video.Source, &l.video.YouTube, &l.video.Vimeo, &l.video.Stream, &l.cover, &l.linkURL,
			&l.linkTitle, &l.supportURL, &l.supportTitle, &l.supportType, &l.materials, &l.duration, &l.free, &l.optional,
			&l.video.Upload.State, &l.video.Upload.StreamKey, &l.video.Upload.PosterURL, &l.video.Upload.Duration)
	if err == pgx.ErrNoRows {
		return l, core.Errorf(core.ENOTFOUND, MsgLessonNotFound)
	}
	return l, wrap("lesson", err)
}

// Link is a titled address.
type Link struct {
	URL   string `json:"url"`
	Title string `json:"title"`
}

// Material is a titled, typed address.
type Material struct {
	URL   string `json:"url"`
	Title string `json:"title"`
	Type  string `json:"type"`
}

// Neighbour is the previous or next lesson.
type Neighbour struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// LessonDetail is the lesson page.
type LessonDetail struct {
	LessonSummary
	CourseID        string             `json:"course_id"`
	ModuleID        string             `json:"module_id"`
	ModuleTitle     string             `json:"module_title"`
	Body            string             `json:"body"`
	Video           *Video             `json:"video"`
	CoverImage      *string            `json:"cover_image"`
	ExternalLink    *Link              `json:"external_link"`
	SupportMaterial *Material          `json:"support_material"`
	Materials       []Material         `json:"materials"`
	Likes           int64              `json:"likes"`
	IsLiked         bool               `json:"is_liked"`
	Previous        *Neighbour         `json:"previous"`
	Next            *Neighbour         `json:"next"`
	Watched         []engagement.Range `json:"watched"`
	Percent         float64            `json:"percent"`
}

// findLesson locates lessonID in the course's published curriculum.
func findLesson(cur []curLesson, lessonID string) (int, error) {
	for i := range cur {
		if cur[i].ID == strings.ToLower(lessonID) {
			return i, nil
		}
	}
	return -1, core.Errorf(core.ENOTFOUND, MsgLessonNotFound)
}

// openLesson resolves a lesson of a course and checks readerID may open it.
func (s *Service) openLesson(ctx context.Context, idOrSlug, lessonID, readerID string) (course, []curLesson, int, error) {
	if !validUUID(lessonID) {
		return course{}, nil, 0, core.Errorf(core.ENOTFOUND, MsgLessonNotFound)
	}
	c, err := s.getCourse(ctx, idOrSlug, readerID)
	if err != nil {
		return c, nil, 0, err
	}
	cur, err := s.curriculum(ctx, c.ID, readerID)
	if err != nil {
		return c, nil, 0, err
	}
	i, err := findLesson(cur, lessonID)
	if err != nil {
		return c, nil, 0, err
	}
	premium := false
	if !cur[i].IsFree && c.IsEnrolled && !c.counted {
		if premium, err = s.premiumAccess(ctx, readerID); err != nil {
			return c, nil, 0, err
		}
	}
	if err := canAccess(c, cur[i].IsFree, premium); err != nil {
		return c, nil, 0, err
	}
	cur[i].CanAccess = true
	return c, cur, i, nil
}

// Lesson returns the lesson page (403 when readerID may not open it).
func (s *Service) Lesson(ctx context.Context, idOrSlug, lessonID, readerID string) (LessonDetail, error) {
	c, cur, i, err := s.openLesson(ctx, idOrSlug, lessonID, readerID)
	if err != nil {
		return LessonDetail{}, err
	}
	l, err := s.lessonRow(ctx, cur[i].ID)
	if err != nil {
		return LessonDetail{}, err
	}
	d := LessonDetail{LessonSummary: cur[i].LessonSummary, CourseID: c.ID, ModuleID: cur[i].moduleID, ModuleTitle: cur[i].moduleTitle,
		Body: l.body, CoverImage: UploadURL(l.cover), Materials: []Material{}, Watched: []engagement.Range{}}
	d.Video = PlayerVideo(l.video, func(key string, seconds float64) string { return s.sign(key, readerID, seconds) })
	if l.linkURL != "" {
		title := l.linkTitle
		if title == "" {
			title = l.linkURL
		}
		d.ExternalLink = &Link{URL: l.linkURL, Title: title}
	}
	if l.supportURL != "" {
		title := l.supportTitle
		if title == "" {
			title = "Material de apoio"
		}
		d.SupportMaterial = &Material{URL: l.supportURL, Title: title, Type: l.supportType}
		// A material file is the library's: signed for this reader, who
		// may open the lesson (none when it cannot be signed).
		if m := materialFile.FindStringSubmatch(l.supportURL); m != nil {
			if d.SupportMaterial.URL = s.sign(m[1], readerID, 0); d.SupportMaterial.URL == "" {
				d.SupportMaterial = nil
			}
		}
	}
	for _, line := range strings.Split(l.materials, "\n") {
		title, addr, ok := strings.Cut(line, "|")
		if ok && strings.TrimSpace(addr) != "" {
			d.Materials = append(d.Materials, Material{URL: strings.TrimSpace(addr), Title: strings.TrimSpace(title), Type: "link"})
		}
	}
	if i > 0 {
		d.Previous = &Neighbour{ID: cur[i-1].ID, Title: cur[i-1].Title}
	}
	if i+1 < len(cur) {
		d.Next = &Neighbour{ID: cur[i+1].ID, Title: cur[i+1].Title}
	}
	sum, err := s.eng.Summary(ctx, readerID, l.id)
	if err != nil {
		return LessonDetail{}, wrap("lesson engagement", err)
	}
	d.Likes, d.IsLiked = sum.Likes, sum.Reaction == engagement.ReactionLike
	p, err := s.eng.Progress(ctx, readerID, l.id)
	if err != nil {
		return LessonDetail{}, wrap("lesson progress", err)
	}
	d.Percent, d.PositionSeconds = p.Percent, p.PositionSeconds
	if p.Watched != nil {
		d.Watched = p.Watched
	}
	if d.IsCompleted {
		d.Percent = max(d.Percent, 100)
	}
	return d, nil
}

// LessonEngageable resolves lesson lessonID for someone who wants to read
// or add its comments or react to it through the generic content routes:
// they must be able to open it in one of the courses it belongs to (the
// rule of the lesson page: enrolment, free lessons, premium). It answers
// the lesson id, or the refusal of the last course tried.
func (s *Service) LessonEngageable(ctx context.Context, lessonID, userID string) (string, error) {
	if !validUUID(lessonID) {
		return "", core.Errorf(core.ENOTFOUND, MsgLessonNotFound)
	}
	rows, err := s.pool.Query(ctx, `SELECT DISTINCT course_id::text FROM course_curriculum WHERE lesson_id = $1`, lessonID)
	if err != nil {
		return "", wrap("lesson courses", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return "", wrap("lesson courses", err)
	}
	last := error(core.Errorf(core.ENOTFOUND, MsgLessonNotFound))
	for _, id := range ids {
		_, cur, i, err := s.openLesson(ctx, id, lessonID, userID)
		if err == nil {
			return cur[i].ID, nil
		}
		if core.ErrorCode(err) == core.EINTERNAL {
			return "", err
		}
		last = err
	}
	return "", last
}
