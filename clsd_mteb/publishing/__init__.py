"""Publishing data and results: the release's Hub export, MTEB results exports, the Hub's eval.yaml and leaderboard results, training rows."""
