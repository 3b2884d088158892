-- query.sql: the sqlite3 workload of the bundled trace: build two tables
-- with recursive CTEs, index one, then join, group and sort.
CREATE TABLE item(id INTEGER PRIMARY KEY, cat INTEGER, price INTEGER, name TEXT);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
INSERT INTO item SELECT i, (i * 7919) % 97, (i * 104729) % 1000, 'item' || i FROM n;
CREATE TABLE sale(item INTEGER, qty INTEGER, day INTEGER);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60000)
INSERT INTO sale SELECT (i * 2654435761) % 20000 + 1, i % 9 + 1, i % 365 FROM n;
CREATE INDEX sale_item ON sale(item);
SELECT cat, count(*), sum(qty * price) AS revenue
  FROM sale JOIN item ON item.id = sale.item
  GROUP BY cat ORDER BY revenue DESC LIMIT 10;
SELECT day, sum(qty) FROM sale GROUP BY day HAVING sum(qty) > 850 ORDER BY day;
