"""The base of the REST API's models."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Model(BaseModel):
    """A model whose fields' docstrings describe them in the OpenAPI schema."""

    model_config = ConfigDict(use_attribute_docstrings=True)
