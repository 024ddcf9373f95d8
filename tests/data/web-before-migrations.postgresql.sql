-- The schema `metadata.create_all` made on PostgreSQL before migrations (commit 1c758f9),
-- with the columns `_add_missing_columns` added; generated from that code's tables.
CREATE TABLE games (
	id VARCHAR(32) NOT NULL, 
	header TEXT NOT NULL, 
	status VARCHAR(16) NOT NULL, 
	created FLOAT NOT NULL, 
	updated FLOAT NOT NULL, 
	turns INTEGER, 
	seating TEXT, 
	PRIMARY KEY (id)
);

CREATE TABLE sheets (
	id VARCHAR(32) NOT NULL, 
	data TEXT NOT NULL, 
	status VARCHAR(16) NOT NULL, 
	created FLOAT NOT NULL, 
	updated FLOAT NOT NULL, 
	secret VARCHAR(64), 
	PRIMARY KEY (id)
);

CREATE TABLE moves (
	game_id VARCHAR(32) NOT NULL, 
	seq INTEGER NOT NULL, 
	move VARCHAR(32) NOT NULL, 
	PRIMARY KEY (game_id, seq), 
	FOREIGN KEY(game_id) REFERENCES games (id)
);

CREATE TABLE seats (
	game_id VARCHAR(32) NOT NULL, 
	seat INTEGER NOT NULL, 
	name VARCHAR(64) NOT NULL, 
	bot VARCHAR(32), 
	token VARCHAR(64), 
	claimed BOOLEAN NOT NULL, 
	open_seat BOOLEAN, 
	PRIMARY KEY (game_id, seat), 
	FOREIGN KEY(game_id) REFERENCES games (id)
);

CREATE TABLE table_events (
	game_id VARCHAR(32) NOT NULL, 
	number INTEGER NOT NULL, 
	seq INTEGER NOT NULL, 
	entry TEXT NOT NULL, 
	PRIMARY KEY (game_id, number), 
	FOREIGN KEY(game_id) REFERENCES games (id)
);

CREATE TABLE pending (
	game_id VARCHAR(32) NOT NULL, 
	PRIMARY KEY (game_id)
);

CREATE TABLE profiles (
	id VARCHAR(16) NOT NULL, 
	name VARCHAR(64) NOT NULL, 
	name_key VARCHAR(64) NOT NULL, 
	key_hash VARCHAR(64) NOT NULL, 
	created FLOAT NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (name_key)
);

CREATE TABLE ratings (
	player VARCHAR(32) NOT NULL, 
	mu FLOAT NOT NULL, 
	sigma FLOAT NOT NULL, 
	updated FLOAT NOT NULL, 
	PRIMARY KEY (player)
);

CREATE TABLE results (
	game_id VARCHAR(32) NOT NULL, 
	seat INTEGER NOT NULL, 
	player VARCHAR(32) NOT NULL, 
	rank INTEGER NOT NULL, 
	worms INTEGER NOT NULL, 
	players INTEGER NOT NULL, 
	win FLOAT NOT NULL, 
	rated BOOLEAN NOT NULL, 
	mu FLOAT, 
	sigma FLOAT, 
	finished FLOAT NOT NULL, 
	PRIMARY KEY (game_id, seat)
);

CREATE INDEX ix_results_player ON results (player);

CREATE TABLE rematches (
	game_id VARCHAR(32) NOT NULL, 
	new_game_id VARCHAR(32) NOT NULL, 
	status VARCHAR(16) NOT NULL, 
	offered_by INTEGER NOT NULL, 
	accepted TEXT NOT NULL, 
	declined_by INTEGER, 
	updated FLOAT NOT NULL, 
	PRIMARY KEY (game_id)
);

