-- only the first line of a multi-line uncaught error message is recorded
print("x")
error("line one\nline two")
