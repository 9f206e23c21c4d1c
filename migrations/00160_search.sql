-- +goose Up
-- Search that finds partial words and ignores accents, the same everywhere
-- (core/search builds every query on these pieces):
--   * full text: vetclube_prefix_tsquery turns the reader's words into a
--     tsquery of prefixes over the accent-free Portuguese stems the search
--     vectors hold ("dermato" finds "dermatologia", "vacina" finds
--     "vacinação");
--   * typos: trigram word similarity between the folded words and the folded
--     title (pg_trgm), so "dermatolgia" still finds "Dermatologia".
--
-- pg_trgm, like unaccent, is a trusted extension: the database owner may
-- create it without superuser rights.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- vetclube_fold is text lower-cased and without accents. unaccent() itself is
-- only STABLE (its dictionary could change), which rules it out of index
-- expressions; naming the dictionary explicitly is the documented way to an
-- IMMUTABLE wrapper. The schema unaccent lives in is looked up, not assumed.
-- +goose StatementBegin
DO $do$
DECLARE
    s text;
BEGIN
    SELECT extnamespace::regnamespace::text INTO STRICT s FROM pg_extension WHERE extname = 'unaccent';
    EXECUTE format($f$CREATE FUNCTION vetclube_fold(t text) RETURNS text
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $b$SELECT lower(%1$s.unaccent(%2$L::regdictionary, t))$b$$f$, quote_ident(s), quote_ident(s) || '.unaccent');
END $do$;
-- +goose StatementEnd

-- vetclube_prefix_tsquery: every word of words must match (AND); a word
-- matches a lexeme that starts with it ("dermato" → dermatolog) or a
-- lexeme between its own stem and itself ("vacinas" → vacin, "cirurgi" →
-- cirurg). The stem alone is not used as a prefix: "fluido" stems to "flu",
-- and flu:* would also find "fluxo" and "fluconazol". Stop words are dropped
-- unless the query is that single word (then it is a prefix like any other:
-- "do" while typing "doença"). Lexemes are quoted from folded letters and
-- digits only, so no input can change the query's structure.
-- +goose StatementBegin
CREATE FUNCTION vetclube_prefix_tsquery(words text) RETURNS tsquery
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE AS $$
DECLARE
    w     text;
    kept  text[] := '{}';
    stem  text[];
    alts  text[];
    parts text[] := '{}';
    n     integer;
BEGIN
    FOREACH w IN ARRAY regexp_split_to_array(vetclube_fold(left(words, 400)), '[^[:alnum:]]+') LOOP
        IF w <> '' AND cardinality(kept) < 8 THEN
            kept := kept || left(w, 40);
        END IF;
    END LOOP;
    FOREACH w IN ARRAY kept LOOP
        stem := ts_lexize('portuguese_stem', w);
        IF stem IS NULL OR cardinality(stem) = 0 THEN
            CONTINUE WHEN cardinality(kept) > 1;
            alts := ARRAY[quote_literal(w) || ':*'];
        ELSE
            alts := ARRAY[quote_literal(w) || ':*'];
            IF left(w, length(stem[1])) = stem[1] THEN
                FOR n IN length(stem[1]) .. length(w) - 1 LOOP
                    alts := alts || quote_literal(left(w, n));
                END LOOP;
            ELSE
                alts := alts || quote_literal(stem[1]);
            END IF;
        END IF;
        parts := parts || ('(' || array_to_string(alts, ' | ') || ')');
    END LOOP;
    IF cardinality(parts) = 0 THEN
        RETURN NULL; -- matches nothing (an empty tsquery would only add a notice)
    END IF;
    RETURN array_to_string(parts, ' & ')::tsquery;
END $$;
-- +goose StatementEnd

-- Events had no search vector: title first, then type, instructor, place and
-- summary, then the description.
ALTER TABLE event_listings ADD COLUMN search tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('vetclube_pt'::regconfig, title), 'A')
    || setweight(to_tsvector('vetclube_pt'::regconfig, event_type || ' ' || instructor || ' ' || location || ' ' || summary), 'B')
    || setweight(to_tsvector('vetclube_pt'::regconfig, description), 'C')) STORED;
CREATE INDEX event_listings_search_idx ON event_listings USING gin (search);

-- Trigram indexes on the folded titles, for the typo fallback.
CREATE INDEX content_published_title_trgm_idx ON content_published USING gin (vetclube_fold(title) gin_trgm_ops);
CREATE INDEX content_items_title_trgm_idx ON content_items USING gin (vetclube_fold(title) gin_trgm_ops);
CREATE INDEX course_listings_title_trgm_idx ON course_listings USING gin (vetclube_fold(title) gin_trgm_ops);
CREATE INDEX video_listings_title_trgm_idx ON video_listings USING gin (vetclube_fold(title) gin_trgm_ops);
CREATE INDEX event_listings_title_trgm_idx ON event_listings USING gin (vetclube_fold(title) gin_trgm_ops);

-- +goose Down
DROP INDEX event_listings_title_trgm_idx;
DROP INDEX video_listings_title_trgm_idx;
DROP INDEX course_listings_title_trgm_idx;
DROP INDEX content_items_title_trgm_idx;
DROP INDEX content_published_title_trgm_idx;
ALTER TABLE event_listings DROP COLUMN search;
DROP FUNCTION vetclube_prefix_tsquery(text);
DROP FUNCTION vetclube_fold(text);
