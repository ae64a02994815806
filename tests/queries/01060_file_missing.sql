-- storage: missing file should be CANNOT_STAT (400) like ClickHouse; shale says CANNOT_EXTRACT_TABLE_STRUCTURE (636). Also: in --testmode a mismatched error code followed by more statements made the run hang until timeout (exit 124)
SELECT * FROM file('data/nosuch.csv', CSV); -- { serverError CANNOT_STAT }
SELECT 1;
