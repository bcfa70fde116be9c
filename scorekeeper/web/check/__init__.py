"""The play checker: is this play legal here?"""
