query smoke_1 smoke
SELECT count(*) FROM orders

query smoke_2 smoke
SELECT dt, count(*) FROM orders GROUP BY dt ORDER BY dt
