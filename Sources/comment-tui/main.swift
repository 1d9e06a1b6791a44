import CommentTUI
print(CommentTUIVersion.value)
