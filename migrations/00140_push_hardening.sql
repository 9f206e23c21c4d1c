-- +goose Up
-- Deliveries recorded the raw network error ("erro de rede: dial tcp …:
-- connection refused"), which members read in /api/push/deliveries and could
-- use to tell hosts and ports apart. Replace those with the fixed reason the
-- service now records.
UPDATE push_deliveries SET last_error = 'Falha de conexão com o serviço de notificações.'
WHERE last_error LIKE 'erro de rede:%';

-- +goose Down
SELECT 1;
