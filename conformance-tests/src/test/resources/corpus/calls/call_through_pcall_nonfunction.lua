-- pcall of a non-callable value reports the call error
print(pcall(nil))
print(pcall(42))
