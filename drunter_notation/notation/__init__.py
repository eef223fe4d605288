"""notation"""
