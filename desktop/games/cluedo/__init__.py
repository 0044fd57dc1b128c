"""The Cluedo tab: worksheet heat map, suggestion form, recommendations, new-game dialog."""
