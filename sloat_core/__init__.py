"""sloat_core: Article IX (Village of Sloatsburg Code, Chapter 402, §§ 402-45 to 402-59) as code.

The core knows no screen: nothing here imports streamlit. The CLI (``python -m sloat_core``)
and the Streamlit app are two faces of the same functions.
"""

__version__ = "0.1.0"
