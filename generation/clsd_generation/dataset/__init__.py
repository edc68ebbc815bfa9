"""The dataset side: building the Hub-format folder, its card and statistics, the English pivot, human checks and the judge's
calibration against them, publishing."""
