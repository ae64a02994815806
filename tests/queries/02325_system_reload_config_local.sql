-- SYSTEM RELOAD CONFIG needs a server: clickhouse-local (and shale local) refuse it
SYSTEM RELOAD CONFIG; -- { serverError UNSUPPORTED_METHOD }
-- SYSTEM FLUSH LOGS is accepted (the logs are written as events happen)
SYSTEM FLUSH LOGS;
SELECT 1;
