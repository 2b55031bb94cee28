x = "unfinished
