-- +goose Up
-- A certificate names who taught the course, as it stood when the
-- certificate was issued (like the course title): a later change of the
-- course's instructor never rewrites a certificate already given.
ALTER TABLE course_certificates
    ADD COLUMN instructor_name  text NOT NULL DEFAULT '',
    ADD COLUMN instructor_title text NOT NULL DEFAULT '';

-- Certificates issued before: the course's current instructor, when the
-- course and its instructor still exist.
UPDATE course_certificates c
SET instructor_name = i.name, instructor_title = i.professional_title
FROM course_listings l
JOIN course_instructors i ON i.item_id = l.instructor_id
WHERE l.item_id = c.course_id AND c.instructor_name = '';

-- +goose Down
ALTER TABLE course_certificates DROP COLUMN instructor_name, DROP COLUMN instructor_title;
